import DBusTestSupport
import Foundation

/// The desktop a server needs cannot run on this machine: the server is reported skipped, with the reason.
struct DesktopCannotStart: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }
}

/// A headless sway compositor on a private session bus, where the Wayland notification servers (mako,
/// SwayNotificationCenter) draw. sway refuses to run as root, so it, the servers and the accessibility bus run as the
/// unprivileged user `nobody`; the bridge and the test stay root, which reaches every socket of that user.
final class SwaySession: Sendable {
    /// The account sway and the servers run as: `nobody`, which every Debian system has.
    static let user: uid_t = 65534
    static let group: gid_t = 65534

    let bus: PrivateBus
    let folder: URL
    /// The folder of the user's sockets (`XDG_RUNTIME_DIR`): the Wayland display, sway's IPC, the accessibility bus.
    let runtime: URL
    let waylandDisplay: String
    private let sway: ChildProcess
    private let accessibility: ChildProcess

    /// Whether sway and grim are installed.
    static var isInstalled: Bool { ExecutableLookup.find("sway") != nil && ExecutableLookup.find("grim") != nil }

    /// Starts sway with the headless backend and the accessibility bus, both as ``user``, on `bus`; `home` becomes
    /// that user's, so that the servers can keep their files there.
    static func start(on bus: PrivateBus, home: URL) async throws -> SwaySession {
        let folder = bus.directory.appendingPathComponent("sway")
        let runtime = folder.appendingPathComponent("run")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        // The user must reach the bus socket and the scripts in the bus's folder, and own its runtime folder and home.
        for path in [bus.directory.path, folder.path] { chmod(path, 0o755) }
        chmod(runtime.path, 0o700)
        for path in [runtime.path, home.path] {
            guard chown(path, user, group) == 0 else {
                throw TestSupportError("cannot give \(path) to uid \(user): \(String(cString: strerror(errno)))")
            }
        }
        let config = folder.appendingPathComponent("config")
        try """
            output HEADLESS-1 resolution 1024x768
            xwayland disable
            """.write(to: config, atomically: true, encoding: .utf8)
        chmod(config.path, 0o644)
        var environment = bus.environment
        environment["HOME"] = home.path
        environment["XDG_RUNTIME_DIR"] = runtime.path
        let log = open(folder.appendingPathComponent("sway.log").path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        defer { close(log) }
        var swayEnvironment = environment
        swayEnvironment["WLR_BACKENDS"] = "headless"
        swayEnvironment["WLR_LIBINPUT_NO_DEVICES"] = "1"
        // No GPU here: wlroots draws with pixman, which grim's screen copy reads too.
        swayEnvironment["WLR_RENDERER"] = "pixman"
        let sway = try ChildProcess.spawn(
            asUser(["sway", "--config", config.path]), environment: swayEnvironment, standardOutput: log,
            standardError: log)
        let display: String
        do {
            display = try await withTimeout(.seconds(15), waitingFor: "sway to open its Wayland display") {
                while true {
                    let names = (try? FileManager.default.contentsOfDirectory(atPath: runtime.path)) ?? []
                    if let socket = names.first(where: { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }) {
                        return socket
                    }
                    if let status = sway.poll() {
                        let text = (try? String(contentsOf: folder.appendingPathComponent("sway.log"), encoding: .utf8))
                        throw TestSupportError("sway exited with \(status): \(text ?? "")")
                    }
                    try await Task.sleep(for: .milliseconds(50))
                }
            }
        } catch {
            sway.stop()
            // No compositor, no server to test: the machine, not the bridge, is at fault.
            throw DesktopCannotStart(reason: "headless sway did not start: \(error)")
        }
        environment["WAYLAND_DISPLAY"] = display
        let accessibility: ChildProcess
        do {
            accessibility = try ChildProcess.spawn(
                asUser(["/usr/libexec/at-spi-bus-launcher", "--launch-immediately"]), environment: environment,
                standardOutput: open("/dev/null", O_WRONLY), standardError: open("/dev/null", O_WRONLY))
        } catch {
            sway.stop()
            throw error
        }
        let session = SwaySession(
            bus: bus, folder: folder, runtime: runtime, waylandDisplay: display, sway: sway,
            accessibility: accessibility)
        try ExecutableScript.write(Self.pressScript, to: session.pressScriptPath)
        let watcher = try await bus.connect()
        defer { Task { await watcher.close() } }
        try await withTimeout(.seconds(10), waitingFor: "the accessibility bus to start") {
            while try await watcher.nameOwner(of: "org.a11y.Bus") == nil {
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        return session
    }

    private init(
        bus: PrivateBus, folder: URL, runtime: URL, waylandDisplay: String, sway: ChildProcess,
        accessibility: ChildProcess
    ) {
        self.bus = bus
        self.folder = folder
        self.runtime = runtime
        self.waylandDisplay = waylandDisplay
        self.sway = sway
        self.accessibility = accessibility
    }

    /// `command` run as ``user``, with no supplementary groups.
    static func asUser(_ command: [String]) -> [String] {
        ["setpriv", "--reuid=\(user)", "--regid=\(group)", "--clear-groups"] + command
    }

    /// The environment of programs on this desktop: the private bus, the user's runtime folder, the Wayland display.
    var environment: [String: String] {
        var environment = bus.environment
        environment["XDG_RUNTIME_DIR"] = runtime.path
        environment["WAYLAND_DISPLAY"] = waylandDisplay
        environment["NO_AT_BRIDGE"] = nil
        return environment
    }

    /// Saves what sway's output shows as a PNG file at `path`, with `grim`.
    func screenshot(to path: String) async throws {
        let result = try await ProcessRunner.run(["grim", path], environment: environment, timeout: .seconds(20))
        guard result.status == 0 else { throw TestSupportError("grim failed: \(result.standardError)") }
    }

    private var pressScriptPath: String { folder.appendingPathComponent("press").path }

    /// Presses the button named `label` of `application` through the accessibility tree, as a screen reader's user
    /// does (sway has no pointer here); with `summary`, the button of the notification whose summary is that. Retries
    /// until the button is there, for at most `limit`.
    func press(
        _ label: String, in application: String, summary: String? = nil, within limit: Duration = .seconds(15)
    ) async throws {
        try await button(label, of: application, summary: summary, pressing: true, within: limit)
    }

    /// Waits until `application` shows a button named `label` (a notification's summary, in SwayNotificationCenter).
    func awaitButton(_ label: String, of application: String, within limit: Duration = .seconds(15)) async throws {
        try await button(label, of: application, summary: nil, pressing: false, within: limit)
    }

    private func button(
        _ label: String, of application: String, summary: String?, pressing: Bool, within limit: Duration
    ) async throws {
        let deadline = ContinuousClock.now + limit
        var last = ""
        while ContinuousClock.now < deadline {
            // The accessibility bus is the user's: the script runs as that user, for the bus to let it in.
            let result = try await ProcessRunner.run(
                Self.asUser([
                    "/usr/bin/python3", pressScriptPath, pressing ? "press" : "find", application, label, summary ?? "",
                ]), environment: environment, timeout: .seconds(20))
            if result.status == 0 { return }
            last = result.output + result.standardError
            try await Task.sleep(for: .milliseconds(200))
        }
        throw TestSupportError("no button '\(label)' of \(application) after \(limit); it shows: \(last)")
    }

    func stop() {
        accessibility.stop(grace: .seconds(2))
        sway.stop(grace: .seconds(3))
    }

    /// Presses (`press`) or finds (`find`) a button: arguments the mode, application, label, and the summary of its
    /// notification (empty for any). A
    /// notification's summary is a button of its own in SwayNotificationCenter, before the action buttons and the
    /// close button (which has no name). Prints the buttons it saw when it finds none.
    private static let pressScript = """
        #!/usr/bin/python3
        import sys
        import pyatspi
        mode, application, label, summary = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
        seen = []
        def buttons(node, depth, found):
            if depth > 40:
                return
            try:
                if node.getRoleName() == "push button":
                    found.append(node)
                for index in range(node.childCount):
                    buttons(node.getChildAtIndex(index), depth + 1, found)
            except Exception:
                return
        for app in pyatspi.Registry.getDesktop(0):
            if app is None or app.name != application:
                continue
            found = []
            buttons(app, 0, found)
            seen += [button.name for button in found]
            owner = None
            for button in found:
                if summary and button.name == summary:
                    owner = button
                elif (not summary or owner is not None) and button.name == label:
                    if mode == "press":
                        button.queryAction().doAction(0)
                    sys.exit(0)
                elif owner is not None and button.name == "":
                    owner = None
        print("buttons: " + ", ".join(repr(name) for name in seen))
        sys.exit(1)
        """
}
