import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationServerKit
import Testing

/// A daemon stopped gracefully just after a new notification server took the name, once that server shows what the
/// daemon posted to it again: the next start lists every one of them, as the server shows them. The daemon records
/// each notification posted again under its new server id when the session reports it; a stop that cut the session's
/// reports off before the last were read left the old server on disk, and the next start forgot notifications the
/// server still showed. Found by the daemon simulation under load (seed 45 step 503).
@Suite("A daemon restart right after the server's")
struct RepostRestartTests {
    /// Notifications showing when the server restarts: the more are posted again, the later the last report.
    static let showing = 24
    /// Server restarts each followed at once by a restart of the daemon.
    static let rounds = 10

    @Test("a graceful restart of the daemon right after a new server shows what it posted again keeps them all")
    func restartAfterRepost() async throws {
        try await withPrivateBus { bus in
            var serverConnection = try await bus.connect()
            var server = NotificationServer()
            let events = server.events()
            let profile = NotificationServerProfile.dunst.withoutDefaultExpiry
            try await server.start(on: serverConnection, profile: profile)
            let run = await outcome {
                var bodies: [String] = []
                for round in 0...Self.rounds {
                    try await DaemonFixture.run(bus: bus, server: server, events: events) { fixture in
                        // After a restart (answered once what the last run kept is restored): everything posted is
                        // listed, and shown once.
                        let listed = try await Self.listed(fixture)
                        try #require(
                            listed.count == bodies.count,
                            "round \(round): ListDelivered lists all \(bodies.count) the server shows")
                        #expect(
                            await server.shownNotifications.map(\.body).sorted() == bodies.sorted(),
                            "round \(round): the server shows each once")
                        guard round < Self.rounds else { return }
                        if round == 0 {
                            for index in 0..<Self.showing {
                                bodies.append("n\(index)")
                                _ = try await fixture.post(Self.post("n\(index)"))
                            }
                        }
                        // The server restarts; once the new one shows each again, the daemon stops at once.
                        await serverConnection.close()
                        serverConnection = try await bus.connect()
                        server = NotificationServer()
                        try await server.start(on: serverConnection, profile: profile)
                        try await Self.awaitShown(bodies, server, "round \(round): the new server")
                    }
                }
            }
            await serverConnection.close()
            try run.get()
        }
    }

    static func post(_ body: String) -> [String: DBusValue] {
        [
            PostKeys.title.name: .string("Build"), PostKeys.body.name: .string(body),
            PostKeys.appName.name: .string("Builds"), PostKeys.timeout.name: .int32(0),
        ]
    }

    /// What `ListDelivered` lists for `app`.
    static func listed(_ fixture: DaemonFixture, app: String = "Builds") async throws -> [ListedNotification] {
        let reply = try await fixture.call(
            BridgeMethod.listDelivered.name, [.vardict([FilterKeys.appName.name: .string(app)])])
        guard case .array(_, let values)? = reply.first else { throw TestSupportError("ListDelivered gave \(reply)") }
        return values.compactMap(ListedNotification.init)
    }

    /// Returns once `server` shows exactly `bodies`, or throws after a bound.
    static func awaitShown(_ bodies: [String], _ server: NotificationServer, _ what: String) async throws {
        let wanted = bodies.sorted()
        try await withTimeout(.seconds(10), waitingFor: "\(what) to show all \(bodies.count)") {
            while await server.shownNotifications.map(\.body).sorted() != wanted {
                try await Task.sleep(for: .milliseconds(1))
            }
        }
    }
}
