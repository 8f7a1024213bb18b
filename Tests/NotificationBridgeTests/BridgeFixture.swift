import DBusCore
import DBusTestSupport
import Foundation
import NotificationModel
import NotificationServerKit
import Testing

@testable import NotificationBridge

/// A private bus with a NotificationServerKit server of one profile, and a center posting to it.
struct BridgeFixture: Sendable {
    let bus: PrivateBus
    let server: NotificationServer
    /// The server's connection: closing it is the server's process exiting (its ``NotificationServer/run()`` ends).
    let serverConnection: DBusConnection
    let serverEvents: AsyncStream<NotificationServerEvent>
    let center: DesktopNotificationCenter
    let connection: DBusConnection

    static let reply = NotifyEncoderTests.reply
    static let markRead = NotifyEncoderTests.markRead
    static let delete = NotifyEncoderTests.delete
    static let open = NotifyEncoderTests.open

    /// The "message" category, reporting dismissals or not.
    static func message(reportsDismissal: Bool = false) -> NotificationCategory {
        NotificationCategory(
            id: "message", actions: [reply, markRead, delete, open], minimalActions: [reply, delete],
            reportsDismissal: reportsDismissal)
    }

    static func content(title: String = "Ann", body: String = "Lunch?") -> NotificationContent {
        var content = NotificationContent(title: title, body: body)
        content.categoryID = "message"
        content.userInfo = ["thread": .string("t-42")]
        return content
    }

    static func with<T: Sendable>(
        _ profile: NotificationServerProfile, promptCommand: [String]? = nil,
        categories: [NotificationCategory] = [message()], _ body: (BridgeFixture) async throws -> T
    ) async throws -> T {
        try await withPrivateBus { bus in
            let serverConnection = try await bus.connect()
            let server = NotificationServer()
            let events = server.events()
            // The server keeps what it would let expire by itself: on a loaded machine more than its default timeout
            // may pass between a post and the test's click. Expiry is tested where it is the point.
            try await server.start(on: serverConnection, profile: profile.withoutDefaultExpiry)
            async let serverRunning: Void = server.run()
            let connection = try await bus.connect()
            // A prompt command is always set, so no zenity on the test machine changes what the tests see.
            let center = try await DesktopNotificationCenter(
                connection: connection, systemConnection: nil,
                configuration(on: bus, promptCommand: promptCommand ?? ["/bin/false"]))
            let fixture = BridgeFixture(
                bus: bus, server: server, serverConnection: serverConnection, serverEvents: events, center: center,
                connection: connection)
            let result = await outcome {
                try await center.running {
                    try await center.setNotificationCategories(categories)
                    return try await body(fixture)
                }
            }
            await serverConnection.close()
            await serverRunning
            await connection.close()
            await serverConnection.close()
            return try result.get()
        }
    }

    /// A center's configuration for app "Mail" whose user settings are the bridge's own file in the bus's folder
    /// (`config/notification-bridge/settings.ini`, none until a test writes one), never the user's of this machine.
    static func configuration(
        on bus: PrivateBus, promptCommand: [String]
    ) -> DesktopNotificationCenter.Configuration {
        var configuration = DesktopNotificationCenter.Configuration(appName: "Mail", promptCommand: promptCommand)
        configuration.settingsLocation = .file
        configuration.settingsDirectory = settingsDirectory(of: bus).path
        return configuration
    }

    /// Where a center made with ``configuration(on:promptCommand:)`` keeps its settings file.
    static func settingsDirectory(of bus: PrivateBus) -> URL {
        bus.directory.appendingPathComponent("config/notification-bridge")
    }

    /// Posts `content` and returns the bridge id and the notification as the server got it.
    func post(_ content: NotificationContent) async throws -> (id: String, served: ServedNotification) {
        let id = try await center.post(content)
        let served = try await nextServed()
        return (id, served)
    }

    /// The next notification the server shows (new or replaced).
    func nextServed(within limit: Duration = .seconds(10)) async throws -> ServedNotification {
        let events = serverEvents
        return try await withTimeout(limit, waitingFor: "the server to show a notification") {
            for await event in events {
                switch event {
                case .notified(let served), .replaced(_, let served): return served
                default: continue
                }
            }
            throw TestSupportError("the server's events ended")
        }
    }

    /// The next response no handler took.
    func nextResponse(within limit: Duration = .seconds(10)) async throws -> NotificationResponse {
        try await center.responses.first(within: limit, waitingFor: "a response")
    }

    /// The next notification leaving the server.
    func nextClosure(within limit: Duration = .seconds(10)) async throws -> DesktopNotificationCenter.Closure {
        try await nextEvent(within: limit, waitingFor: "a notification to close") { event in
            if case .closed(let closure) = event { closure } else { nil }
        }
    }

    /// The next event of the center that `match` picks (others are skipped).
    func nextEvent<T: Sendable>(
        within limit: Duration = .seconds(10), waitingFor what: String,
        _ match: @escaping @Sendable (NotificationEvent) -> T?
    ) async throws -> T {
        let events = center.events
        return try await withTimeout(limit, waitingFor: what) {
            for await event in events {
                if let found = match(event) { return found }
            }
            throw TestSupportError("the center's events ended while waiting for \(what)")
        }
    }
}

extension DesktopNotificationCenter {
    /// Runs `body` while the center's ``run()`` runs beside it in a task group, then cancels it (also when `body`
    /// throws), as an app runs it.
    nonisolated func running<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await self.run() }
            defer { group.cancelAll() }
            return try await body()
        }
    }
}
