import DBusCore
import DBusTestSupport
import NotificationServerKit
import Testing

/// The server's work lives in its `run()`: its notifications expire while it runs, one timer queue serving them all,
/// and when it ends (cancelled, or its connection closed) the server has left the bus and holds nothing.
@Suite("The server's lifetime")
struct ServerLifetimeTests {
    @Test("cancelling run() gives the name back, drops the notifications and finishes the events")
    func cancellationLeavesTheBus() async throws {
        try await withPrivateBus { bus in
            let connection = try await bus.connect()
            let client = try await bus.connect()
            let server = NotificationServer()
            let events = server.events()
            try await server.start(on: connection, profile: .mako)
            let owners = try await client.nameOwnerChanges(of: NotificationServer.busName)
            try await withTimeout(.seconds(20), waitingFor: "run() to end once its group is cancelled") {
                try await withThrowingDiscardingTaskGroup { group in
                    group.addTask { await server.run() }
                    _ = try await client.call(
                        destination: NotificationServer.busName, path: NotificationServer.objectPath,
                        interface: NotificationServer.interfaceName, method: "Notify",
                        arguments: [
                            .string("test-app"), .uint32(0), .string(""), .string("left behind"), .string(""),
                            .strings([]), .vardict([:]), .int32(0),
                        ], timeout: .seconds(10))
                    group.cancelAll()
                }
            }
            try await withTimeout(.seconds(10), waitingFor: "the name to be given back") {
                for await owner in owners where owner == nil { return }
                throw TestSupportError("the name's changes ended")
            }
            #expect(await server.notifications.isEmpty)
            #expect(await !server.isRunning)
            let seen = try await withTimeout(.seconds(10), waitingFor: "the server's events to finish") {
                var seen: [NotificationServerEvent] = []
                for await event in events { seen.append(event) }
                return seen
            }
            #expect(seen.count == 1, "only the notification shown, no close: \(seen)")
            await client.close()
            await connection.close()
        }
    }

    @Test("timeouts asked out of order expire in the order of their deadlines")
    func expiriesFollowTheirDeadlines() async throws {
        try await ServerFixture.with(.mako) { fixture in
            // The second post's deadline is earlier than the first's, the third's between them.
            var deadlines: [UInt32: (earliest: ContinuousClock.Instant, latest: ContinuousClock.Instant)] = [:]
            for timeout in [4500, 1500, 3000] {
                let sent = ContinuousClock.now
                let id = try await fixture.notify(summary: "\(timeout) ms", timeout: Int32(timeout))
                // The server set the deadline while the call was out.
                deadlines[id] = (sent + .milliseconds(timeout), .now + .milliseconds(timeout))
            }
            var order: [UInt32] = []
            for _ in 0..<3 {
                let (expired, reason) = try await fixture.events.nextClosed(within: .seconds(20))
                #expect(reason == .expired)
                order.append(expired.id)
            }
            #expect(Set(order) == Set(deadlines.keys))
            // Each pair whose deadlines are surely apart, however long a post took on a loaded machine, expired in
            // their order.
            for (index, earlier) in order.enumerated() {
                for later in order[(index + 1)...] {
                    let (first, second) = (deadlines[earlier]!, deadlines[later]!)
                    #expect(second.latest >= first.earliest, "\(later) expired after \(earlier), its deadline before")
                }
            }
            #expect(await fixture.server.notifications.isEmpty)
        }
    }

    @Test("a notification closed before its deadline does not expire, and the others still do")
    func aClosedNotificationLeavesTheQueue() async throws {
        try await ServerFixture.with(.mako) { fixture in
            // Seconds before the first deadline, so that the close comes first on a loaded machine too.
            let closed = try await fixture.notify(summary: "closed", timeout: 4000)
            let kept = try await fixture.notify(summary: "kept", timeout: 5000)
            _ = try await fixture.call("CloseNotification", [.uint32(closed)])
            let (first, firstReason) = try await fixture.events.nextClosed(within: .seconds(20))
            #expect(first.id == closed && firstReason == .closedByCall)
            let (second, secondReason) = try await fixture.events.nextClosed(within: .seconds(20))
            #expect(second.id == kept && secondReason == .expired)
            try fixture.sendSentinel()
            #expect(
                try await fixture.clientSignals.untilSentinel() == [
                    .closed(closed, .closedByCall), .closed(kept, .expired),
                ])
        }
    }
}
