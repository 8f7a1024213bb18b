import DBusTestSupport
import Foundation

/// The desktop a server needs cannot run on this machine: the server is reported skipped, with the reason.
struct DesktopCannotStart: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }
}

/// The desktop of the Wayland notification servers (mako, SwayNotificationCenter): a headless sway compositor
/// (``HeadlessSway``, run as the unprivileged user `nobody`) and the accessibility bus, through which the test presses
/// SwayNotificationCenter's buttons.
final class SwaySession: Sendable {
    let compositor: HeadlessSway
    private let accessibility: ChildProcess

    /// Whether sway and grim are installed.
    static var isInstalled: Bool { ExecutableLookup.find("sway") != nil && ExecutableLookup.find("grim") != nil }

    /// Starts sway and the accessibility bus, both as ``HeadlessSway/user``, on `bus`; `home` becomes that user's, so
    /// that the servers can keep their files there.
    static func start(on bus: PrivateBus, home: URL) async throws -> SwaySession {
        let compositor: HeadlessSway
        do {
            compositor = try await HeadlessSway.start(on: bus, home: home)
        } catch let cannotStart as HeadlessSway.CannotStart {
            // No compositor, no server to test: the machine, not the bridge, is at fault.
            throw DesktopCannotStart(reason: cannotStart.description)
        }
        var accessibilityEnvironment = compositor.environment
        accessibilityEnvironment["HOME"] = home.path
        let accessibility: ChildProcess
        do {
            accessibility = try ChildProcess.spawn(
                asUser(["/usr/libexec/at-spi-bus-launcher", "--launch-immediately"]),
                environment: accessibilityEnvironment, standardOutput: open("/dev/null", O_WRONLY),
                standardError: open("/dev/null", O_WRONLY))
        } catch {
            compositor.stop()
            throw error
        }
        let session = SwaySession(compositor: compositor, accessibility: accessibility)
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

    private init(compositor: HeadlessSway, accessibility: ChildProcess) {
        self.compositor = compositor
        self.accessibility = accessibility
    }

    /// `command` run as sway's user.
    static func asUser(_ command: [String]) -> [String] { HeadlessSway.asUser(command) }

    /// The environment of programs on this desktop: the private bus, the user's runtime folder, the Wayland display.
    var environment: [String: String] {
        var environment = compositor.environment
        environment["NO_AT_BRIDGE"] = nil
        return environment
    }

    /// Saves what sway's output shows as a PNG file at `path`, with `grim`.
    func screenshot(to path: String) async throws {
        let result = try await ProcessRunner.run(["grim", path], environment: environment, timeout: .seconds(20))
        guard result.status == 0 else { throw TestSupportError("grim failed: \(result.standardError)") }
    }

    private var pressScriptPath: String { compositor.folder.appendingPathComponent("press").path }

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
        compositor.stop()
    }

    /// Presses (`press`) or finds (`find`) a button: arguments the mode, application, label, and the summary of its
    /// notification (empty for any). A
    /// notification's summary is a button of its own in SwayNotificationCenter, before the action buttons and the
    /// close button (which has no name). Prints the buttons it saw when it finds none, and the application's whole
    /// tree (roles and names) when it shows no button at all. A button is found by its role's
    /// constant: AT-SPI 2.56 (Debian 13) names the role "button", 2.46 "push button".
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
                if node.getRole() == pyatspi.ROLE_PUSH_BUTTON:
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
        if not seen:
            def roles(node, depth, out):
                if depth > 40:
                    return
                try:
                    out.append("%s %r" % (node.getRoleName(), node.name or ""))
                    for index in range(node.childCount):
                        roles(node.getChildAtIndex(index), depth + 1, out)
                except Exception as error:
                    out.append("error %s" % error)
            for app in pyatspi.Registry.getDesktop(0):
                if app is not None and app.name == application:
                    out = []
                    roles(app, 0, out)
                    print("%s shows no button; its tree: %s" % (application, "; ".join(out[:60])))
        print("buttons: " + ", ".join(repr(name) for name in seen))
        sys.exit(1)
        """
}
