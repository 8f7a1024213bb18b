import DBusCore
import DBusTestSupport
import NotificationModel
import NotificationServerKit
import Testing

@testable import NotificationBridge

/// A NotificationServerKit server on a private bus, with its own connection and events.
struct TestServer: Sendable {
    let server: NotificationServer
    let connection: DBusConnection
    let events: AsyncStream<NotificationServerEvent>

    /// Starts a server of the full-featured profile; `answer` is set before it takes the name. Its `run()` is left out:
    /// nothing expires unless a test expires it, and the server lives until ``stop()`` or the end of the bus.
    static func start(
        on bus: PrivateBus, answer: NotifyAnswer = .immediately, allowingReplacement: Bool = false,
        replacingOwner: Bool = false
    ) async throws -> TestServer {
        let connection = try await bus.connect()
        let server = NotificationServer()
        let events = server.events()
        await server.setNotifyAnswer(answer)
        try await server.start(
            on: connection, profile: .fullFeatured, replacingOwner: replacingOwner,
            allowingReplacement: allowingReplacement)
        return TestServer(server: server, connection: connection, events: events)
    }

    /// The next event that `match` picks, within a generous bound.
    func next<T: Sendable>(
        _ what: String, _ match: @escaping @Sendable (NotificationServerEvent) -> T?
    ) async throws -> T {
        let events = self.events
        return try await withTimeout(.seconds(60), waitingFor: what) {
            for await event in events {
                if let matched = match(event) { return matched }
            }
            throw TestSupportError("the server's events ended while waiting for \(what)")
        }
    }

    /// Waits until the server holds a `Notify` unanswered.
    func nextHeld() async throws {
        _ = try await next("the server to hold a Notify") { event -> Bool? in
            if case .held = event { true } else { nil }
        }
    }

    /// The summaries of the live notifications, oldest first.
    var summaries: [String] {
        get async { await server.notifications.map(\.summary) }
    }

    /// The `CloseNotification` calls the server has had.
    var closeCalls: [RecordedCall] {
        get async { await server.calls.filter { $0.member == "CloseNotification" } }
    }

    /// The server's process exits: its connection closes, and the bus gives its name away.
    func stop() async {
        await connection.close()
    }
}

/// Runs `body` with a session on its own connection to `bus`, running until `body` returns.
func withSession<T: Sendable>(
    on bus: PrivateBus, serverTimeout: Duration = .seconds(60),
    _ body: @Sendable (NotificationServerSession) async throws -> T
) async throws -> T {
    let connection = try await bus.connect()
    let session = try await NotificationServerSession(
        connection: connection,
        configuration: .init(promptCommand: ["/bin/false"], serverTimeout: serverTimeout, startsWithoutServer: true))
    let result = await withTaskGroup(of: Result<T, any Error>?.self) { group in
        group.addTask {
            await session.run()
            return nil
        }
        let result: Result<T, any Error>
        do {
            // Until it runs, a Notify is a plain call whose late answer is lost: the tests start with it running.
            try await withTimeout(.seconds(60), waitingFor: "the session to run") {
                while await !session.isRunning { try await Task.sleep(for: .milliseconds(5)) }
            }
            result = .success(try await body(session))
        } catch {
            result = .failure(error)
        }
        session.finish()
        group.cancelAll()
        return result
    }
    await connection.close()
    return try result.get()
}

/// A notification with a title alone, which never expires: a test that takes long on a loaded machine must not find
/// it gone.
func titled(_ title: String) -> NotificationContent {
    var content = NotificationContent(title: title, body: "")
    content.timeout = .never
    return content
}

/// The next event of `session` that `match` picks, within a generous bound.
func nextSessionEvent<T: Sendable>(
    of session: NotificationServerSession, _ what: String, _ match: @escaping @Sendable (SessionEvent) -> T?
) async throws -> T {
    let events = session.events
    return try await withTimeout(.seconds(60), waitingFor: what) {
        for await event in events {
            if let matched = match(event) { return matched }
        }
        throw TestSupportError("the session's events ended while waiting for \(what)")
    }
}
