import Foundation

/// A headless sway compositor on a private session bus, where the Wayland notification servers (mako,
/// SwayNotificationCenter) draw. sway refuses to run as root, so it and the programs started with ``asUser(_:)`` run
/// as the unprivileged user `nobody`; the caller stays root, which reaches every socket of that user.
public final class HeadlessSway: Sendable {
    /// The account sway and its clients run as: `nobody`, which every Debian system has.
    public static let user: uid_t = 65534
    /// That account's group, `nogroup`.
    public static let group: gid_t = 65534

    /// sway did not open its Wayland display: the machine, not the program under test, is at fault.
    public struct CannotStart: Error, CustomStringConvertible {
        /// What went wrong, with sway's log when it exited.
        public let description: String
    }

    /// The bus sway and its clients are on.
    public let bus: PrivateBus
    /// The folder of sway's configuration and log, inside the bus's folder.
    public let folder: URL
    /// The user's runtime folder (`XDG_RUNTIME_DIR`): the Wayland display and sway's IPC socket.
    public let runtime: URL
    /// The name of sway's Wayland display socket in ``runtime`` (`WAYLAND_DISPLAY`).
    public let waylandDisplay: String
    private let sway: ChildProcess

    /// Whether sway and `setpriv` are installed (and this process is root, which running sway as `nobody` needs).
    public static var canRun: Bool {
        ExecutableLookup.find("sway") != nil && ExecutableLookup.find("setpriv") != nil && getuid() == 0
    }

    /// Starts sway with the headless backend, as ``user``, on `bus`; `home` becomes that user's, so that the programs
    /// on this desktop can keep their files there.
    ///
    /// - Throws: ``CannotStart`` when sway does not open its display within 15 seconds, ``TestSupportError`` when a
    ///   folder cannot be given to ``user``.
    public static func start(on bus: PrivateBus, home: URL) async throws -> HeadlessSway {
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
        environment["WLR_BACKENDS"] = "headless"
        environment["WLR_LIBINPUT_NO_DEVICES"] = "1"
        // No GPU here: wlroots draws with pixman, which grim's screen copy reads too.
        environment["WLR_RENDERER"] = "pixman"
        let log = open(folder.appendingPathComponent("sway.log").path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        defer { close(log) }
        let sway = try ChildProcess.spawn(
            asUser(["sway", "--config", config.path]), environment: environment, standardOutput: log,
            standardError: log)
        do {
            let display = try await withTimeout(.seconds(15), waitingFor: "sway to open its Wayland display") {
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
            return HeadlessSway(bus: bus, folder: folder, runtime: runtime, waylandDisplay: display, sway: sway)
        } catch {
            sway.stop()
            throw CannotStart(description: "headless sway did not start: \(error)")
        }
    }

    private init(bus: PrivateBus, folder: URL, runtime: URL, waylandDisplay: String, sway: ChildProcess) {
        self.bus = bus
        self.folder = folder
        self.runtime = runtime
        self.waylandDisplay = waylandDisplay
        self.sway = sway
    }

    /// `command` run as ``user``, with no supplementary groups (`setpriv` executes it in its own process).
    public static func asUser(_ command: [String]) -> [String] {
        ["setpriv", "--reuid=\(user)", "--regid=\(group)", "--clear-groups"] + command
    }

    /// The environment of programs on this desktop: the private bus, the user's runtime folder, the Wayland display.
    public var environment: [String: String] {
        var environment = bus.environment
        environment["XDG_RUNTIME_DIR"] = runtime.path
        environment["WAYLAND_DISPLAY"] = waylandDisplay
        return environment
    }

    /// Stops sway (SIGTERM, then SIGKILL after 3 s).
    public func stop() {
        sway.stop(grace: .seconds(3))
    }
}
