import DBusTestSupport
import Foundation
import Synchronization

/// One real server with the bridge's daemon on a private bus, and the user's side of each case.
final class InteropRun: Sendable {
    let server: RealServer
    let bus: PrivateBus
    let desktop: DesktopSession?
    let dunst: Dunst?
    let gnome: GnomeShellSession?
    let plasma: PlasmaSession?
    let sway: SwaySession?
    /// The `Notify` calls, where the server takes actions by position (``RealServer/Pointer/swayncControl``).
    let notifyWatch: NotifyWatch?
    let expectations: InteropExpectations
    /// The server's process, replaced when a case restarts it; `nil` for dunst, which ``Dunst`` runs.
    private let process: Mutex<ChildProcess?>
    /// The daemon's process, replaced when a case restarts it.
    private let daemon: Mutex<ChildProcess>
    let environment: [String: String]
    /// The file whose content the scripted prompt program "types"; without it, the user cancels the prompt.
    let promptAnswer: URL

    static func start(
        _ server: RealServer, on bus: PrivateBus, expectations: InteropExpectations
    ) async throws -> InteropRun {
        let home = bus.directory.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        var desktop: DesktopSession?
        var dunst: Dunst?
        var gnome: GnomeShellSession?
        var plasma: PlasmaSession?
        var sway: SwaySession?
        var process: ChildProcess?
        var environment: [String: String]
        if server.pointer == .dunstMenu {
            dunst = try await Dunst.start(on: bus)
            environment = bus.environment
            environment["DISPLAY"] = dunst?.displayName
        } else if server.pointer == .gnomeShell {
            environment = bus.environment
        } else if server.runsUnderSway {
            let session = try await SwaySession.start(on: bus, home: home)
            sway = session
            environment = session.environment
        } else {
            let session = try await DesktopSession.start(on: bus)
            desktop = session
            environment = session.environment
        }
        environment["HOME"] = home.path
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent(".config").path
        environment["XDG_STATE_HOME"] = home.appendingPathComponent(".local/state").path
        environment["XDG_DATA_HOME"] = home.appendingPathComponent(".local/share").path
        if server.pointer == .gnomeShell {
            let session = try await GnomeShellSession.start(on: bus, environment: environment)
            gnome = session
            environment = session.environment
        }
        if PlasmaSession.isPlasma(server) {
            plasma = try await PlasmaSession.start(on: bus, environment: environment)
        }
        if !server.command.isEmpty {
            process = try await startServer(server, on: bus, environment: environment)
        }
        let promptAnswer = bus.directory.appendingPathComponent("prompt-answer")
        let prompt = try ExecutableScript.write(
            """
            #!/bin/sh
            # The user at the prompt: types what the answer file holds, byte for byte, or cancels without it.
            [ -f '\(promptAnswer.path)' ] || exit 1
            cat '\(promptAnswer.path)'
            """, to: bus.directory.appendingPathComponent("prompt").path)
        let notifyWatch =
            server.pointer == .swayncControl ? try NotifyWatch.start(in: bus.directory, environment: environment) : nil
        let daemon = try await startDaemon(on: bus, environment: environment, prompt: prompt)
        return InteropRun(
            server: server, bus: bus, desktop: desktop, dunst: dunst, gnome: gnome, plasma: plasma, sway: sway,
            notifyWatch: notifyWatch, expectations: expectations,
            process: process, daemon: daemon, environment: environment, promptAnswer: promptAnswer)
    }

    private init(
        server: RealServer, bus: PrivateBus, desktop: DesktopSession?, dunst: Dunst?, gnome: GnomeShellSession?,
        plasma: PlasmaSession?, sway: SwaySession?, notifyWatch: NotifyWatch?, expectations: InteropExpectations,
        process: ChildProcess?,
        daemon: ChildProcess,
        environment: [String: String], promptAnswer: URL
    ) {
        self.server = server
        self.bus = bus
        self.desktop = desktop
        self.dunst = dunst
        self.gnome = gnome
        self.plasma = plasma
        self.sway = sway
        self.notifyWatch = notifyWatch
        self.expectations = expectations
        self.process = Mutex(process)
        self.daemon = Mutex(daemon)
        self.environment = environment
        self.promptAnswer = promptAnswer
    }

    /// Starts the server's own command and waits until it owns `org.freedesktop.Notifications`.
    private static func startServer(
        _ server: RealServer, on bus: PrivateBus, environment: [String: String], previous: String? = nil
    ) async throws -> ChildProcess {
        let log = open(
            bus.directory.appendingPathComponent("server.log").path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        defer { close(log) }
        let process = try ChildProcess.spawn(
            server.launchCommand, environment: environment, standardOutput: log, standardError: log)
        try await awaitName("org.freedesktop.Notifications", on: bus, what: server.name, previous: previous)
        return process
    }

    /// Stops the server and starts it again, as a user whose notification server crashed and came back would see.
    /// Returns once the new one owns `org.freedesktop.Notifications`.
    func restartServer() async throws {
        if let gnome { return try await gnome.restartNotificationService() }
        if let dunst { return try await dunst.restart() }
        let old = process.withLock { current -> ChildProcess? in
            defer { current = nil }
            return current
        }
        let watcher = try await bus.connect()
        let previous = try await watcher.nameOwner(of: "org.freedesktop.Notifications")
        await watcher.close()
        old?.stop(grace: .seconds(3))
        let new = try await Self.startServer(server, on: bus, environment: environment, previous: previous)
        process.withLock { $0 = new }
    }

    /// Waits until a connection other than `previous` owns `name`, and returns its unique name.
    @discardableResult
    private static func awaitName(
        _ name: String, on bus: PrivateBus, what: String, previous: String? = nil
    ) async throws -> String {
        let watcher = try await bus.connect()
        defer { Task { await watcher.close() } }
        // plasmashell loads its whole desktop before its notifications applet takes the name.
        return try await withTimeout(.seconds(60), waitingFor: "\(what) to own \(name)") {
            while true {
                if let owner = try await watcher.nameOwner(of: name), owner != previous { return owner }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    /// Starts `notification-bridged` with the scripted prompt and waits until it owns its name.
    private static func startDaemon(
        on bus: PrivateBus, environment: [String: String], prompt: String, previous: String? = nil
    ) async throws -> ChildProcess {
        let daemon = try ChildProcess.spawn(
            [try Interop.built("notification-bridged"), "--log-level", "error", "--prompt-command", prompt],
            environment: environment)
        try await awaitName("io.github.NotificationBridge", on: bus, what: "notification-bridged", previous: previous)
        return daemon
    }

    /// Kills the daemon with SIGKILL, as a crash would, and starts it again; returns once the new one owns its name.
    func restartDaemon() async throws {
        let watcher = try await bus.connect()
        let previous = try await watcher.nameOwner(of: "io.github.NotificationBridge")
        await watcher.close()
        let old = daemon.withLock { $0 }
        old.signal(SIGKILL)
        _ = old.waitBlocking(within: .seconds(5))
        let prompt = bus.directory.appendingPathComponent("prompt").path
        let new = try await Self.startDaemon(on: bus, environment: environment, prompt: prompt, previous: previous)
        daemon.withLock { $0 = new }
    }

    func stop() {
        daemon.withLock { $0 }.stop(grace: .seconds(3))
        process.withLock { $0 }?.stop(grace: .seconds(3))
        dunst?.stop()
        gnome?.stop()
        plasma?.stop()
        sway?.stop()
        notifyWatch?.stop()
        desktop?.stop()
    }

    /// Runs `notification-bridge` as the user would.
    func cli(_ arguments: [String], timeout: Duration = .seconds(30)) async throws -> ProcessResult {
        try await ProcessRunner.run(
            [try Interop.built("notification-bridge")] + arguments, environment: environment, timeout: timeout)
    }

    /// Starts a `send … --wait` and returns the task that ends with its result.
    func waiting(_ arguments: [String]) -> Task<ProcessResult, any Error> {
        Task { try await self.cli(["send"] + arguments + ["--wait", "--json"], timeout: .seconds(60)) }
    }
}
