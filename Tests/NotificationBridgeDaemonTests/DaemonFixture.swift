import DBusCore
import DBusTestSupport
import Foundation
import Logging
import NotificationBridge
import NotificationBridgeAPI
import NotificationBridgeDaemon
import NotificationScheduling
import NotificationServerKit
import ServiceLifecycle
import Testing

/// A private bus with a notification server (NotificationServerKit, or dunst) and the daemon running in this process
/// in a `ServiceGroup`, as `notification-bridged` runs it; plus a client connection and helpers to drive the daemon
/// with `gdbus`.
struct DaemonFixture: Sendable {
    let bus: PrivateBus
    /// The scripted notification server, or `nil` when a real one (dunst) runs.
    let server: NotificationServer?
    /// The scripted server's connection, when the fixture made it: closing it is the server's process exiting.
    let serverConnection: DBusConnection?
    /// Every event of the scripted server since before the daemon started.
    let events: AsyncStream<NotificationServerEvent>
    /// A connection of the test's own, to call the daemon directly.
    let client: DBusConnection
    let group: ServiceGroup
    /// A folder for the test's files (removed with the bus).
    let directory: URL
    /// The daemon's group running.
    let running: Task<Void, any Error>

    /// Runs `body` with the daemon serving against a NotificationServerKit server with `profile`.
    ///
    /// - Parameters:
    ///   - promptCommand: the daemon's `--prompt-command`, for servers without an inline reply.
    ///   - serverTimeout: how long the daemon waits for the server's answers (its default unless given).
    ///   - settings: where the user's notification settings are kept (the bridge's file under the test's folder unless
    ///     given).
    static func with<T: Sendable>(
        _ profile: NotificationServerProfile = .fullFeatured, promptCommand: [String]? = nil,
        serverTimeout: Duration? = nil, settings: NotificationSettingsLocation = .file,
        history: HistoryBounds? = nil, historyClock: (@Sendable () -> Date)? = nil,
        doNotDisturb: (any DesktopDoNotDisturbWatching)? = nil, _ body: (DaemonFixture) async throws -> T
    ) async throws -> T {
        try await withPrivateBus { bus in
            let serverConnection = try await bus.connect()
            let server = NotificationServer()
            let events = server.events()
            // The server keeps what it would let expire by itself (dunst's 10 s): on a loaded machine more than that may
            // pass between a post and the click the test makes. Expiry is tested where it is the point.
            try await server.start(on: serverConnection, profile: profile.withoutDefaultExpiry)
            async let serverRunning: Void = server.run()
            let result = await outcome {
                try await run(
                    bus: bus, server: server, serverConnection: serverConnection, events: events,
                    promptCommand: promptCommand,
                    serverTimeout: serverTimeout, settings: settings, history: history,
                    historyClock: historyClock, doNotDisturb: doNotDisturb, body)
            }
            await serverConnection.close()
            await serverRunning
            return try result.get()
        }
    }

    /// Runs `body` with the daemon serving against whatever notification server already runs on `bus`.
    static func run<T: Sendable>(
        bus: PrivateBus, server: NotificationServer?, serverConnection: DBusConnection? = nil,
        events: AsyncStream<NotificationServerEvent>,
        promptCommand: [String]? = nil, serverTimeout: Duration? = nil,
        settings: NotificationSettingsLocation = .file, history: HistoryBounds? = nil,
        historyClock: (@Sendable () -> Date)? = nil, doNotDisturb: (any DesktopDoNotDisturbWatching)? = nil,
        schedulerClock: (any SchedulerClock)? = nil, timeZone: TimeZoneRules? = nil,
        wallClockSteps: AsyncStream<Void>? = nil, log: RecordingLogHandler.Entries? = nil,
        _ body: (DaemonFixture) async throws -> T
    ) async throws -> T {
        let directory = bus.directory.appendingPathComponent("test")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var logger = Logger(label: "notification-bridged-test")
        let level = ProcessInfo.processInfo.environment["NB_TEST_LOG_LEVEL"]
        logger.logLevel = level.flatMap { Logger.Level(rawValue: $0) } ?? .critical
        // A test that reads the log gets every entry.
        if let log { logger = Logger(label: "notification-bridged-test") { _ in RecordingLogHandler(entries: log) } }
        var configuration = DaemonConfiguration(
            bus: .address(bus.address), systemBus: nil, promptCommand: promptCommand,
            applicationDirectories: [directory.path], logger: logger,
            stateDirectory: directory.appendingPathComponent("state").path)
        configuration.desktopDoNotDisturb = doNotDisturb
        configuration.schedulerClock = schedulerClock
        if let timeZone { configuration.schedulerTimeZone = { timeZone } }
        configuration.wallClockSteps = wallClockSteps
        // The tests choose the prompt themselves: zenity or kdialog installed on the machine must not change what a
        // server without inline reply shows.
        if promptCommand == nil { configuration.promptSearchPath = "" }
        if let serverTimeout { configuration.serverTimeout = serverTimeout }
        configuration.settingsLocation = settings
        if let history { configuration.historyBounds = history }
        configuration.historyClock = historyClock
        configuration.settingsDirectory = directory.appendingPathComponent("config/notification-bridge").path
        let daemon = NotificationDaemon(configuration: configuration)
        let group = ServiceGroup(services: [daemon], logger: logger)
        let client = try await bus.connect()
        let owners = try await client.nameOwnerChanges(of: BridgeAPI.busName)
        let running = Task { try await group.run() }
        let fixture = DaemonFixture(
            bus: bus, server: server, serverConnection: serverConnection, events: events, client: client,
            group: group, directory: directory, running: running)
        do {
            try await withTimeout(waitingFor: "the daemon to own \(BridgeAPI.busName)") {
                if try await client.nameOwner(of: BridgeAPI.busName) != nil { return }
                for await owner in owners where owner != nil { return }
            }
            let result = try await body(fixture)
            try await fixture.stop(running)
            return result
        } catch {
            try? await fixture.stop(running)
            throw error
        }
    }

    /// Ends the daemon as near to `kill -9` as this process can: its work is cancelled where it stands, with no
    /// graceful shutdown in order, so the next start reads only what it had saved. The fixture's stop then only closes
    /// the client.
    func crash() async {
        running.cancel()
        _ = await running.result
    }

    private func stop(_ running: Task<Void, any Error>) async throws {
        guard !running.isCancelled else {
            _ = await running.result
            return await client.close()
        }
        await group.triggerGracefulShutdown()
        try await withTimeout(waitingFor: "the daemon to stop") { try await running.value }
        await client.close()
    }

    // MARK: Driving the daemon

    /// The environment of a program on this bus: `HOME` is the test's folder, `XDG_CONFIG_HOME` its `config`.
    var environment: [String: String] {
        var environment = bus.environment
        environment["HOME"] = directory.path
        environment["XDG_CONFIG_HOME"] = directory.appendingPathComponent("config").path
        return environment
    }

    /// Runs a shell script (as a user writes one) on this bus, with `variables` set.
    func sh(_ script: String, _ variables: [String: String] = [:], timeout: Duration = .seconds(20))
        async throws -> ProcessResult
    {
        try await ProcessRunner.run(
            ["/bin/sh", "-c", script], environment: environment.merging(variables) { $1 }, timeout: timeout)
    }

    /// Runs `gdbus call` on a method of the daemon.
    func gdbus(_ method: String, _ arguments: String...) async throws -> ProcessResult {
        try await ProcessRunner.run(
            [
                "gdbus", "call", "--session", "--dest", BridgeAPI.busName, "--object-path",
                BridgeAPI.objectPath.rawValue, "--method", "\(BridgeAPI.interfaceName).\(method)",
            ] + arguments, environment: environment, timeout: .seconds(20))
    }

    /// Calls a method of the daemon from `connection` (the fixture's client unless given).
    @discardableResult
    func call(_ method: String, _ arguments: [DBusValue] = [], from connection: DBusConnection? = nil)
        async throws -> [DBusValue]
    {
        try await (connection ?? client).call(
            destination: BridgeAPI.busName, path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName,
            method: method, arguments: arguments, timeout: .seconds(20))
    }

    /// Posts from `connection` (the fixture's client unless given) and returns the id.
    func post(_ notification: [String: DBusValue], from connection: DBusConnection? = nil) async throws -> String {
        try await call(BridgeMethod.post.name, [.vardict(notification)], from: connection).decode(String.self)
    }

    /// The next notification the scripted server receives.
    func nextNotification() async throws -> ServedNotification {
        let events = self.events
        return try await withTimeout(waitingFor: "the notification server to receive a notification") {
            for await event in events {
                if case .notified(let notification) = event { return notification }
            }
            throw TestSupportError("the server stopped")
        }
    }

    /// Returns when the scripted server closes its notification `serverID`, for whatever reason.
    func nextClosure(of serverID: UInt32) async throws {
        let events = self.events
        try await withTimeout(waitingFor: "the notification server to close notification \(serverID)") {
            for await event in events {
                if case .closed(let notification, _) = event, notification.id == serverID { return }
            }
            throw TestSupportError("the server stopped")
        }
    }

    /// The server.
    var scripted: NotificationServer {
        get throws {
            guard let server else { throw TestSupportError("this fixture runs a real server") }
            return server
        }
    }
}

/// Parses the id out of `gdbus call … Post` output, `('3f9c2a7e1b4d5c6a',)`.
func postedID(_ output: String) throws -> String {
    let parts = output.split(separator: "'")
    guard output.hasPrefix("('"), output.hasSuffix("',)"), parts.count == 3 else {
        throw TestSupportError("not the output of Post: \(output)")
    }
    return String(parts[1])
}

/// The first `'id': <'…'>` value in `gdbus` output.
func idInDictionary(_ output: String) throws -> String {
    guard let rest = output.components(separatedBy: "'id': <'").dropFirst().first else {
        throw TestSupportError("no id in: \(output)")
    }
    return String(rest.prefix(16))
}

/// What `body` returned or threw.
func outcome<T: Sendable>(_ body: () async throws -> T) async -> Result<T, any Error> {
    do {
        return .success(try await body())
    } catch {
        return .failure(error)
    }
}

extension Error {
    /// The D-Bus error name, or `nil` for another error.
    var dbusName: String? { (self as? DBusFailure)?.name }
}
