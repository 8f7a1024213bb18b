import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationBridgeDaemon
import NotificationServerKit
import Testing

/// Scheduled notifications that came due while no notification server ran are shown once one starts: each exactly
/// once, however the server's arrival and the daemon's own work interleave.
@Suite("A server arrives")
struct ServerArrivalTests {
    static let rounds = 50
    static let firingsPerRound = 3

    @Test("firings that came due with no server are each shown exactly once when a server starts, 50 times over")
    func shownOnceWhenAServerStarts() async throws {
        try await withPrivateBus { bus in
            let (events, sink) = AsyncStream.makeStream(of: NotificationServerEvent.self)
            try await DaemonFixture.run(bus: bus, server: nil, events: events) { fixture in
                for round in 0..<Self.rounds {
                    try await Self.round(round, fixture: fixture, bus: bus, sink: sink)
                }
            }
        }
    }

    @Test("a firing that finds a server which has taken the name but does not answer yet is shown once it answers")
    func firingDuringArrival() async throws {
        // The session asks a server that took the name for its information for 5 s at most: on a machine too loaded
        // for the test to export the server within that, the scenario proves nothing, and is run again.
        for _ in 1...3 where try await Self.firingDuringArrivalAttempt() { return }
        Issue.record("three times over, the server could not be exported within the session's 5 s on this machine")
    }

    /// One run of ``firingDuringArrival()``; returns `false` when the session gave up on the server before its export.
    private static func firingDuringArrivalAttempt() async throws -> Bool {
        try await withPrivateBus { bus in
            let (events, _) = AsyncStream.makeStream(of: NotificationServerEvent.self)
            let log = RecordingLogHandler.Entries()
            return try await DaemonFixture.run(bus: bus, server: nil, events: events, log: log) { fixture in
                // The server takes the name before it exports its object, as GNOME Shell's service does at login:
                // the session hears of it at once, but its GetServerInformation fails until the export.
                let connection = try await bus.connect()
                let taken = try await connection.requestName(NotificationServer.busName, flags: [.doNotQueue])
                try #require(taken == .primaryOwner)
                let id = try await fixture.post([
                    PostKeys.title.name: .string("Stand up"), PostKeys.delay.name: .double(0.05),
                ])
                // It came due in between: its Notify found no server answering, and it waits for one.
                try await withTimeout(waitingFor: "the firing to find no server") {
                    while !log.all.contains(where: { $0.1.contains("came due with no notification server") }) {
                        try await Task.sleep(for: .milliseconds(10))
                    }
                }
                let server = NotificationServer()
                try await server.start(on: connection, profile: .fullFeatured)
                async let serverRunning: Void = server.run()
                let gaveUp: @Sendable () -> Bool = {
                    log.all.contains { $0.1.contains("the new notification server does not answer") }
                }
                let shown = try await withTimeout(waitingFor: "the firing to be shown once the server answers") {
                    while !gaveUp() {
                        let shown = await server.shownNotifications.filter { $0.summary == "Stand up" }
                        if !shown.isEmpty { return shown.count }
                        try await Task.sleep(for: .milliseconds(10))
                    }
                    return 0
                }
                if shown > 0 {
                    // After a call's round trip, a second copy, had one been sent, is there too.
                    try await fixture.call(BridgeMethod.listDelivered.name, [.vardict([:])])
                    let copies = await server.shownNotifications.filter { $0.summary == "Stand up" }.count
                    #expect(copies == 1, "shown once, as soon as the server answers")
                    try await fixture.call(BridgeMethod.withdraw.name, [.string(id)])
                }
                await connection.close()
                await serverRunning
                return shown > 0
            }
        }
    }

    /// Schedules notifications that come due with no server, starts a server, checks what it was sent, and stops it.
    private static func round(
        _ round: Int, fixture: DaemonFixture, bus: PrivateBus, sink: AsyncStream<NotificationServerEvent>.Continuation
    ) async throws {
        let titles = (0..<firingsPerRound).map { "round \(round), firing \($0)" }
        var ids: [String] = []
        for title in titles {
            ids.append(
                try await fixture.post([PostKeys.title.name: .string(title), PostKeys.delay.name: .double(0.02)]))
        }
        try await withTimeout(waitingFor: "round \(round)'s notifications to come due") {
            while try await fixture.call(BridgeMethod.listPending.name, [.vardict([:])]).first
                != .array(element: "a{sv}", [])
            {
                try await Task.sleep(for: .milliseconds(10))
            }
        }

        let connection = try await bus.connect()
        let server = NotificationServer()
        let served = server.events()
        let forward = Task { for await event in served { sink.yield(event) } }
        try await server.start(on: connection, profile: .fullFeatured)
        async let serverRunning: Void = server.run()
        // Every firing is shown; then, once the daemon knows the server, a notification posted now comes after any
        // second copy of them, since the server takes calls in order.
        var seen = try await fixture.summaries(until: { Set($0).isSuperset(of: titles) }, round: round)
        let expected = NotificationServerProfile.fullFeatured.serverName
        try await withTimeout(waitingFor: "the daemon to know the new server") {
            while try await fixture.serverName() != expected { try await Task.sleep(for: .milliseconds(10)) }
        }
        let marker = "round \(round), posted now"
        ids.append(try await fixture.post([PostKeys.title.name: .string(marker)]))
        seen += try await fixture.summaries(until: { $0.contains(marker) }, round: round)
        for title in titles {
            #expect(seen.filter { $0 == title }.count == 1, "round \(round): '\(title)' was shown: \(seen)")
        }

        for id in ids { try await fixture.call(BridgeMethod.withdraw.name, [.string(id)]) }
        await connection.close()
        await serverRunning
        forward.cancel()
        try await withTimeout(waitingFor: "the daemon to see the server go") {
            while try await fixture.serverName() != "" { try await Task.sleep(for: .milliseconds(10)) }
        }
    }
}

extension DaemonFixture {
    /// The summaries of the notifications the server is sent from now on, until `done` holds for them.
    fileprivate func summaries(until done: @escaping @Sendable ([String]) -> Bool, round: Int) async throws
        -> [String]
    {
        let events = self.events
        return try await withTimeout(waitingFor: "round \(round)'s notifications to be shown") {
            var summaries: [String] = []
            for await event in events {
                if case .notified(let notification) = event { summaries.append(notification.summary) }
                if done(summaries) { return summaries }
            }
            throw TestSupportError("the server stopped")
        }
    }
}
