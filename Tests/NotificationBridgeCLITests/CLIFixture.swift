import DBusCore
import DBusTestSupport
import Foundation
import NotificationServerKit
import Testing

/// The built programs: next to the test bundle (SwiftPM builds every product before testing), else where
/// `swift build --show-bin-path` says.
enum BuiltPrograms {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func path(of name: String) async throws -> String {
        let bundleFolder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        var candidates = [bundleFolder]
        for attempt in 0..<2 {
            if attempt == 1,
                let binPath = try? await ProcessRunner.run(
                    ["/bin/sh", "-c", "cd \"$0\" && swift build --show-bin-path", root.path], timeout: .seconds(60))
            {
                candidates.append(URL(fileURLWithPath: binPath.output))
            }
            for folder in candidates {
                let executable = folder.appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: executable.path) { return executable.path }
            }
        }
        throw TestSupportError("\(name) is not built (looked in \(candidates.map(\.path))); run 'swift build' first")
    }

    /// A bus address where no bus is.
    static let noBus = "unix:path=/nonexistent/notification-bridge-test"

    /// Runs `notification-bridge` with no bus at all, in the test's own process (``InProcessCommandLine``): for what
    /// must fail, or work, before any D-Bus call.
    ///
    /// - Parameter columns: the width of the terminal help text is wrapped to, as `COLUMNS` gives it to the program.
    static func cli(_ arguments: [String], columns: Int? = nil) async throws -> ProcessResult {
        try await InProcessCommandLine.run(arguments, bus: .address(noBus), columns: columns)
    }
}

/// A private bus with a NotificationServerKit server and the built `notification-bridged` serving on it, to run the
/// built `notification-bridge` against.
struct CLIFixture: Sendable {
    let bus: PrivateBus
    let server: NotificationServer
    /// The server's connection: closing it is the server's process exiting (its ``NotificationServer/run()`` ends).
    let serverConnection: DBusConnection
    let events: AsyncStream<NotificationServerEvent>
    let home: URL
    /// `TZ` of the daemon and of the programs run on this bus; `nil` leaves the machine's zone.
    var timeZone: String? = nil

    /// Runs `body` with a scripted server of `profile` and the daemon started with `daemonArguments` too.
    ///
    /// - Parameter daemonEnvironment: variables set (or replaced) in the daemon's environment only.
    /// - Parameter timeZone: `TZ` for the daemon and the programs the fixture runs (e.g. `Europe/Berlin`), so that
    ///   wall-clock times they print do not depend on the machine.
    static func with<T: Sendable>(
        _ profile: NotificationServerProfile = .fullFeatured, daemonArguments: [String] = [],
        daemonEnvironment: [String: String] = [:], timeZone: String? = nil, _ body: (CLIFixture) async throws -> T
    ) async throws -> T {
        try await withPrivateBus { bus in
            let serverConnection = try await bus.connect()
            let server = NotificationServer()
            let events = server.events()
            // The server keeps what it would let expire by itself (dunst's 10 s): on a loaded machine more than that may
            // pass between a post and the click the test makes. Expiry is tested where it is the point.
            try await server.start(on: serverConnection, profile: profile.withoutDefaultExpiry)
            async let serverRunning: Void = server.run()
            let home = try homeFolder(on: bus)
            let fixture = CLIFixture(
                bus: bus, server: server, serverConnection: serverConnection, events: events, home: home,
                timeZone: timeZone)
            let daemon = try await startDaemon(
                on: bus, environment: fixture.environment.merging(daemonEnvironment) { $1 }, arguments: daemonArguments)
            defer {
                _ = daemon.stop(grace: .seconds(5))
            }
            do {
                let result = try await body(fixture)
                await serverConnection.close()
                await serverRunning
                return result
            } catch {
                await serverConnection.close()
                await serverRunning
                throw error
            }
        }
    }

    /// A home folder of the test's own, in the bus's folder.
    static func homeFolder(on bus: PrivateBus) throws -> URL {
        let home = bus.directory.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        return home
    }

    /// Starts the built `notification-bridged` on `bus` and returns once it owns its name.
    static func startDaemon(on bus: PrivateBus, environment: [String: String], arguments: [String] = [])
        async throws -> ChildProcess
    {
        let daemonPath = try await BuiltPrograms.path(of: "notification-bridged")
        let watcher = try await bus.connect()
        let owners = try await watcher.nameOwnerChanges(of: "io.github.NotificationBridge")
        let daemon = try ChildProcess.spawn(
            [daemonPath, "--log-level", "error"] + arguments, environment: environment)
        do {
            try await withTimeout(waitingFor: "notification-bridged to own its name") {
                for await owner in owners where owner != nil { return }
            }
        } catch {
            _ = daemon.stop(grace: .seconds(5))
            throw error
        }
        await watcher.close()
        return daemon
    }

    /// The environment of programs on this bus, with a home folder of the test's own.
    var environment: [String: String] {
        var environment = Self.environment(bus: bus, home: home)
        if let timeZone { environment["TZ"] = timeZone }
        return environment
    }

    /// The environment of programs on `bus`, with `home` as their home folder.
    static func environment(bus: PrivateBus, home: URL) -> [String: String] {
        var environment = bus.environment
        environment["HOME"] = home.path
        environment["XDG_STATE_HOME"] = home.appendingPathComponent(".local/state").path
        environment["XDG_DATA_HOME"] = home.appendingPathComponent(".local/share").path
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent(".config").path
        return environment
    }

    /// Runs `notification-bridge` with `arguments` on this bus: in the test's own process (``InProcessCommandLine``),
    /// unless the fixture gives a time zone, which only a process of its own can have; then the built program.
    func cli(_ arguments: [String], timeout: Duration = .seconds(20)) async throws -> ProcessResult {
        guard timeZone == nil else { return try await Self.cli(arguments, environment: environment, timeout: timeout) }
        return try await InProcessCommandLine.run(arguments, bus: .address(bus.address), timeout: timeout)
    }

    /// Runs the built `notification-bridge` on this bus, in a process of its own: for what only the program does.
    func program(_ arguments: [String], timeout: Duration = .seconds(20)) async throws -> ProcessResult {
        try await Self.cli(arguments, environment: environment, timeout: timeout)
    }

    /// Runs the built `notification-bridge` with `environment`.
    static func cli(_ arguments: [String], environment: [String: String], timeout: Duration = .seconds(20))
        async throws -> ProcessResult
    {
        try await ProcessRunner.run(
            [try await BuiltPrograms.path(of: "notification-bridge")] + arguments, environment: environment,
            timeout: timeout)
    }

    /// Runs a shell script on this bus, with the built `notification-bridge` first on `PATH`, in the test's home
    /// folder (as the documentation's examples are run).
    func sh(_ script: String, timeout: Duration = .seconds(20)) async throws -> ProcessResult {
        let program = try await BuiltPrograms.path(of: "notification-bridge")
        var environment = self.environment
        let folder = URL(fileURLWithPath: program).deletingLastPathComponent().path
        environment["PATH"] = folder + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        return try await ProcessRunner.run(["/bin/sh", "-c", script], environment: environment, timeout: timeout)
    }

    /// The next notification the server receives.
    func nextNotification() async throws -> ServedNotification {
        let events = self.events
        return try await withTimeout(waitingFor: "the notification server to receive a notification") {
            for await event in events {
                if case .notified(let notification) = event { return notification }
            }
            throw TestSupportError("the server stopped")
        }
    }
}

/// Parses one line of JSON output with Foundation, as a script's JSON tool would.
func parsedJSON(_ text: String) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
}
