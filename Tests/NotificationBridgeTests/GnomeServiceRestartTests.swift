import DBusCore
import DBusTestSupport
import NotificationModel
import NotificationServerKit
import Testing

@testable import NotificationBridge

/// GNOME Shell 43: its gjs notification service restarts alone while the shell keeps showing the notifications.
/// The bridge must close the copy the user sees before it posts again (a replacement would lose its buttons), not post
/// a second one beside a first whose buttons reach nobody.
@Suite struct GnomeServiceRestartTests {
    @Test func theCopyOnTheScreenIsClosedAndTheNewOneAnswers() async throws {
        try await Self.withGnome { bus, server, events, center in
            let id = try await center.post(BridgeFixture.content(title: "Eve"))
            let shown = try await Self.next(events, "the first post") { event in
                if case .notified(let first) = event { first } else { nil }
            }
            let newService = try await bus.connect()
            try await server.restartService(on: newService)
            let closed = try await Self.next(events, "the stale copy to close") { event in
                if case .closed(let old, let reason) = event { (old.id, reason) } else { nil }
            }
            #expect(closed.0 == shown.id)
            #expect(closed.1 == .closedByCall)
            let again = try await Self.next(events, "the bridge to post again") { event in
                if case .notified(let new) = event { new } else { nil }
            }
            #expect(await server.notifications.map(\.id) == [again.id], "a second copy is left on the screen")
            try await server.invokeAction(id: again.id, key: "read")
            let response = try await center.responses.first(waitingFor: "the response to Read")
            #expect(response.notificationID == id)
            #expect(response.actionID == "read")
            await newService.close()
        }
    }

    /// The gjs service takes the name a moment before it exports its object, and answers calls in between with an
    /// error: the bridge asks again until the service answers, then posts what is outstanding.
    @Test func aServiceThatExportsAfterTakingTheNameGetsTheNotificationAgain() async throws {
        try await Self.withGnome { bus, server, events, center in
            let id = try await center.post(BridgeFixture.content(title: "Eve"))
            _ = try await Self.next(events, "the first post") { if case .notified(let n) = $0 { n } else { nil } }
            let newService = try await bus.connect()
            try await server.restartService(on: newService, exportDelay: .milliseconds(300))
            let again = try await Self.next(events, "the bridge to post again once the service answers") { event in
                if case .notified(let new) = event { new } else { nil }
            }
            try await server.invokeAction(id: again.id, key: "read")
            let response = try await center.responses.first(waitingFor: "the response to Read")
            #expect(response.notificationID == id)
            await newService.close()
        }
    }

    /// When the shell restarted as well, the old ids mean nothing to it (or name another application's notification):
    /// the bridge closes nothing and posts anew.
    @Test func aNewShellGetsTheNotificationAnew() async throws {
        try await Self.withGnome { bus, server, events, center in
            _ = try await center.post(BridgeFixture.content(title: "Eve"))
            _ = try await Self.next(events, "the first post") { if case .notified(let n) = $0 { n } else { nil } }
            let newShell = try await bus.connect()
            try await Self.takeOver(newShell)
            let newService = try await bus.connect()
            try await server.restartService(on: newService)
            let posted = try await Self.next(events, "the bridge to post again") { event in
                switch event {
                case .closed: "closed"
                case .notified: "posted"
                default: nil
                }
            }
            #expect(posted == "posted", "an id of the old shell was closed on the new one")
            await newService.close()
            await newShell.close()
        }
    }

    private static func withGnome(
        _ body: (PrivateBus, NotificationServer, AsyncStream<NotificationServerEvent>, DesktopNotificationCenter)
            async throws -> Void
    ) async throws {
        try await withPrivateBus { bus in
            let shell = try await bus.connect()
            try await takeOver(shell)
            let service = try await bus.connect()
            let server = NotificationServer()
            let events = server.events()
            try await server.start(on: service, profile: .gnomeShell43)
            async let serverRunning: Void = server.run()
            let connection = try await bus.connect()
            let center = try await DesktopNotificationCenter(
                connection: connection, systemConnection: nil,
                BridgeFixture.configuration(on: bus, promptCommand: ["/bin/false"]))
            try await center.running {
                try await center.setNotificationCategories([
                    NotificationCategory(id: "message", actions: [BridgeFixture.markRead, BridgeFixture.open])
                ])
                try await body(bus, server, events, center)
            }
            await service.close()
            await serverRunning
            await connection.close()
            await service.close()
            await shell.close()
        }
    }

    /// Makes `connection` the shell: the owner of `org.gnome.Shell`, taking the name from an earlier one.
    private static func takeOver(_ connection: DBusConnection) async throws {
        _ = try await connection.requestName("org.gnome.Shell", flags: [.allowReplacement, .replaceExisting])
    }

    private static func next<T: Sendable>(
        _ events: AsyncStream<NotificationServerEvent>, _ what: String,
        _ match: @escaping @Sendable (NotificationServerEvent) -> T?
    ) async throws -> T {
        try await withTimeout(.seconds(10), waitingFor: what) {
            for await event in events {
                if let found = match(event) { return found }
            }
            throw TestSupportError("the server's events ended while waiting for \(what)")
        }
    }
}
