import DBusCore
import DBusTestSupport
import NotificationServerKit
import Testing

/// A server running with one profile on a private bus, a client connection that posts, and a bystander connection
/// that watches everything the server broadcasts.
struct ServerFixture: Sendable {
    let bus: PrivateBus
    let server: NotificationServer
    let serverConnection: DBusConnection
    /// Posts notifications and listens to the server, as an app does.
    let client: DBusConnection
    /// Every event of the server since before it started.
    let events: AsyncStream<NotificationServerEvent>
    /// Every signal the server sends that the client receives.
    let clientSignals: AsyncStream<DBusSignal>
    /// Every signal the server sends that a third connection, which posted nothing, receives.
    let bystanderSignals: AsyncStream<DBusSignal>

    /// The member the sentinel signal uses; it marks the end of what a test waits for.
    static let sentinelMember = "TestSentinel"

    /// Runs `body` with a fresh bus and a server serving with `profile`; then the server leaves the bus and every
    /// connection closes.
    static func with<T: Sendable>(
        _ profile: NotificationServerProfile, _ body: (ServerFixture) async throws -> T
    ) async throws -> T {
        try await withPrivateBus { bus in
            let serverConnection = try await bus.connect()
            let client = try await bus.connect()
            let bystander = try await bus.connect()
            let server = NotificationServer()
            let events = server.events()
            do {
                let result = try await server.serving(on: serverConnection, profile: profile) {
                    let rule = DBusMatchRule(sender: serverConnection.uniqueName, path: NotificationServer.objectPath)
                    let fixture = ServerFixture(
                        bus: bus, server: server, serverConnection: serverConnection, client: client, events: events,
                        clientSignals: try await client.signals(matching: rule),
                        bystanderSignals: try await bystander.signals(matching: rule))
                    return try await body(fixture)
                }
                for connection in [client, bystander, serverConnection] { await connection.close() }
                return result
            } catch {
                for connection in [client, bystander, serverConnection] { await connection.close() }
                throw error
            }
        }
    }

    /// Posts a notification from the client with `Notify`; returns the id.
    @discardableResult
    func notify(
        app: String = "test-app", replacing replacesID: UInt32 = 0, summary: String, body: String = "",
        actions: [String] = [], hints: [String: DBusValue] = [:], timeout: Int32 = -1
    ) async throws -> UInt32 {
        try await post(
            from: client, app: app, replacing: replacesID, summary: summary, body: body, actions: actions,
            hints: hints, timeout: timeout)
    }

    /// Posts a notification from any connection.
    func post(
        from connection: DBusConnection, app: String = "test-app", replacing replacesID: UInt32 = 0,
        summary: String, body: String = "", actions: [String] = [], hints: [String: DBusValue] = [:],
        timeout: Int32 = -1
    ) async throws -> UInt32 {
        let reply = try await connection.call(
            destination: NotificationServer.busName, path: NotificationServer.objectPath,
            interface: NotificationServer.interfaceName, method: "Notify",
            arguments: [
                .string(app), .uint32(replacesID), .string(""), .string(summary), .string(body), .strings(actions),
                .vardict(hints), .int32(timeout),
            ], timeout: .seconds(10))
        return try reply.decode(UInt32.self)
    }

    /// Calls a method of the server from the client.
    func call(_ method: String, _ arguments: [DBusValue] = []) async throws -> [DBusValue] {
        try await client.call(
            destination: NotificationServer.busName, path: NotificationServer.objectPath,
            interface: NotificationServer.interfaceName, method: method, arguments: arguments,
            timeout: .seconds(10))
    }

    /// Broadcasts the sentinel from the server's connection. Signals from one connection arrive in order, so once a
    /// listener sees the sentinel it has seen every signal the server sent before.
    func sendSentinel() throws {
        try serverConnection.emit(
            path: NotificationServer.objectPath, interface: "org.example.Test", member: Self.sentinelMember)
    }

    /// The environment for a client program that should use this bus.
    var environment: [String: String] { bus.environment }
}

/// A signal reduced to what a client acts on.
struct SeenSignal: Sendable, Hashable, CustomStringConvertible {
    var member: String
    var arguments: [DBusValue]

    init(_ member: String, _ arguments: [DBusValue]) {
        self.member = member
        self.arguments = arguments
    }

    init(_ signal: DBusSignal) {
        self.init(signal.member, signal.arguments)
    }

    static func closed(_ id: UInt32, _ reason: NotificationCloseReason) -> SeenSignal {
        SeenSignal("NotificationClosed", [.uint32(id), .uint32(reason.rawValue)])
    }

    static func action(_ id: UInt32, _ key: String) -> SeenSignal {
        SeenSignal("ActionInvoked", [.uint32(id), .string(key)])
    }

    static func token(_ id: UInt32, _ token: String) -> SeenSignal {
        SeenSignal("ActivationToken", [.uint32(id), .string(token)])
    }

    static func replied(_ id: UInt32, _ text: String) -> SeenSignal {
        SeenSignal("NotificationReplied", [.uint32(id), .string(text)])
    }

    var description: String { "\(member)\(arguments.gvariantTupleText)" }
}

extension AsyncStream where Element == DBusSignal {
    /// The server's signals up to the sentinel (sent by ``ServerFixture/sendSentinel()``), in order.
    func untilSentinel(within limit: Duration = .seconds(10)) async throws -> [SeenSignal] {
        let stream = self
        return try await withTimeout(limit, waitingFor: "the sentinel signal") {
            var seen: [SeenSignal] = []
            for await signal in stream {
                if signal.member == ServerFixture.sentinelMember { return seen }
                seen.append(SeenSignal(signal))
            }
            throw TestSupportError("the signal stream ended before the sentinel; seen: \(seen)")
        }
    }
}

extension AsyncStream where Element == NotificationServerEvent {
    /// The next event that `matches`, skipping others; fails after `limit`.
    func next(
        _ what: String, within limit: Duration = .seconds(10),
        where matches: @escaping @Sendable (NotificationServerEvent) -> Bool = { _ in true }
    ) async throws -> NotificationServerEvent {
        let stream = self
        return try await withTimeout(limit, waitingFor: what) {
            for await event in stream where matches(event) { return event }
            throw TestSupportError("the server's events ended while waiting for \(what)")
        }
    }

    /// The next new notification.
    func nextNotified(within limit: Duration = .seconds(10)) async throws -> ServedNotification {
        let event = try await next("a new notification", within: limit) {
            if case .notified = $0 { return true }
            return false
        }
        return event.notification!
    }

    /// The next close, with its reason.
    func nextClosed(within limit: Duration = .seconds(10)) async throws -> (ServedNotification, NotificationCloseReason)
    {
        let event = try await next("a closed notification", within: limit) {
            if case .closed = $0 { return true }
            return false
        }
        guard case .closed(let notification, let reason) = event else { preconditionFailure() }
        return (notification, reason)
    }
}

/// Every preset, for `@Test(arguments:)`.
let allPresets: [NamedProfile] = NotificationServerProfile.presets.map {
    NamedProfile(name: $0.name, profile: $0.profile)
}

/// A profile with a name that reads well in test output.
struct NamedProfile: Sendable, CustomTestStringConvertible {
    var name: String
    var profile: NotificationServerProfile
    var testDescription: String { name }
}

/// Runs a real client program against the fixture's bus, bounded.
func runClient(_ arguments: [String], on fixture: ServerFixture, timeout: Duration = .seconds(10)) async throws
    -> ProcessResult
{
    try await ProcessRunner.run(arguments, environment: fixture.environment, timeout: timeout)
}

/// `gdbus call` on the notification server, as a shell script would make it.
func gdbusCall(_ method: String, _ arguments: [String] = [], on fixture: ServerFixture) async throws -> ProcessResult {
    try await runClient(
        [
            "gdbus", "call", "--session", "--dest", NotificationServer.busName, "--object-path",
            NotificationServer.objectPath.rawValue, "--method", "\(NotificationServer.interfaceName).\(method)",
            // Ends gdbus's options, so that an argument such as -1 is not read as one.
            "--",
        ] + arguments, on: fixture)
}
