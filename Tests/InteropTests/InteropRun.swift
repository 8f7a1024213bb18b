import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import Testing

/// One real server with the bridge's daemon on a private bus, and the user's side of each case.
final class InteropRun: Sendable {
    let server: RealServer
    let bus: PrivateBus
    let desktop: DesktopSession?
    let dunst: Dunst?
    private let process: ChildProcess?
    private let daemon: ChildProcess
    let environment: [String: String]

    static func start(_ server: RealServer, on bus: PrivateBus) async throws -> InteropRun {
        let home = bus.directory.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        var desktop: DesktopSession?
        var dunst: Dunst?
        var process: ChildProcess?
        var environment: [String: String]
        if server.pointer == .dunstMenu {
            dunst = try await Dunst.start(on: bus)
            environment = bus.environment
            environment["DISPLAY"] = dunst?.displayName
        } else {
            let session = try await DesktopSession.start(on: bus)
            desktop = session
            environment = session.environment
        }
        environment["HOME"] = home.path
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent(".config").path
        environment["XDG_STATE_HOME"] = home.appendingPathComponent(".local/state").path
        environment["XDG_DATA_HOME"] = home.appendingPathComponent(".local/share").path
        if !server.command.isEmpty {
            let log = open(bus.directory.appendingPathComponent("server.log").path, O_WRONLY | O_CREAT, 0o600)
            defer { close(log) }
            process = try ChildProcess.spawn(
                server.command, environment: environment, standardOutput: log, standardError: log)
            try await Self.awaitName("org.freedesktop.Notifications", on: bus, what: server.name)
        }
        let daemon = try ChildProcess.spawn(
            [try Interop.built("notification-bridged"), "--log-level", "error"], environment: environment)
        try await Self.awaitName("io.github.NotificationBridge", on: bus, what: "notification-bridged")
        return InteropRun(
            server: server, bus: bus, desktop: desktop, dunst: dunst, process: process, daemon: daemon,
            environment: environment)
    }

    private init(
        server: RealServer, bus: PrivateBus, desktop: DesktopSession?, dunst: Dunst?, process: ChildProcess?,
        daemon: ChildProcess, environment: [String: String]
    ) {
        self.server = server
        self.bus = bus
        self.desktop = desktop
        self.dunst = dunst
        self.process = process
        self.daemon = daemon
        self.environment = environment
    }

    private static func awaitName(_ name: String, on bus: PrivateBus, what: String) async throws {
        let watcher = try await bus.connect()
        defer { Task { await watcher.close() } }
        try await withTimeout(.seconds(15), waitingFor: "\(what) to own \(name)") {
            while try await watcher.nameOwner(of: name) == nil {
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    func stop() {
        daemon.stop(grace: .seconds(3))
        process?.stop(grace: .seconds(3))
        dunst?.stop()
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

    // MARK: The cases

    func everyCase() async throws {
        let added = try await cli([
            "category", "add", "mail", "-A", "delete=Delete,background,destructive", "-A", "archive=Archive,background",
            "-A", "open=Open,foreground", "-A", "later=Later,background", "--reports-dismissal",
        ])
        #expect(added.status == 0, "\(added.standardError)")
        try await backgroundActionWithTheServersCategoryHint()
        try await dismissal()
        try await expiry()
    }

    /// The bridge's category beside the server's own category hint; Archive chosen; the destructive action is
    /// never the one a single confirming click picks.
    func backgroundActionWithTheServersCategoryHint() async throws {
        let answer = waiting(["Ann", "Lunch at noon?", "--category", "mail", "-c", "email.arrived"])
        if let desktop {
            let first = try await desktop.widget("the bridge's notification") {
                ($0.role == "push button" || $0.role == "combo box") && ["Archive", "Delete"].contains($0.name)
            }
            try await desktop.screenshot(
                to: Interop.artifacts.appendingPathComponent("\(server.name).png").path)
            if first.role == "combo box" {
                // lxqt-notificationd: a combo box with its first entry chosen, and OK beside it.
                #expect(first.name != "Delete", "the destructive action is preselected")
                try await desktop.clickButton("OK")
            } else {
                try await desktop.clickButton("Archive")
            }
        } else if let dunst {
            let finished = Finished()
            Task {
                _ = try? await answer.value
                await finished.set()
            }
            try await dunst.invoke(actionLabel: "Archive", until: { await finished.isSet })
            print("interop: dunst's menu: \(dunst.lastMenu)")
        }
        let result = try await answer.value
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.output.contains("\"\(ResponseKeys.action.name)\":\"archive\"")
            || result.output.contains("\"\(ResponseKeys.action.name)\":\"open\""), "\(result.output)")
        #expect(!result.output.contains("\"delete\""), "\(result.output)")
    }

    /// The close button (the body, on xfce4-notifyd) gives `dismiss`, whatever reason the server gives.
    func dismissal() async throws {
        guard let desktop else { return }
        let answer = waiting(["Bob", "Closing this one", "--category", "mail", "--timeout", "0"])
        let summary = try await desktop.widget("the summary 'Bob'") { $0.role == "label" && $0.name == "Bob" }
        let close = try? await desktop.widget("a close button", within: .seconds(2)) {
            $0.role == "push button" && ($0.name.isEmpty || $0.name == "x") && abs($0.y - summary.y) < 40
        }
        try await desktop.click(close ?? summary)
        let result = try await answer.value
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.output.contains("\"dismiss\""), "\(server.name): \(result.output) \(result.standardError)")
    }

    /// A notification left alone expires: `--wait` ends with the closed status, never hangs.
    func expiry() async throws {
        // The pointer left on a bubble holds its timeout on mate and notification-daemon: move it away, as a user
        // who is not looking would.
        if let desktop {
            _ = try await ProcessRunner.run(["xdotool", "mousemove", "0", "0"], environment: desktop.environment)
        }
        let result = try await cli(["send", "Brief", "Gone soon", "--timeout", "1500", "--wait"], timeout: .seconds(20))
        #expect(result.status == 3, "\(server.name): \(result.status) \(result.standardError)")
    }
}

/// Whether a waiting command has ended.
private actor Finished {
    var isSet = false
    func set() { isSet = true }
}
