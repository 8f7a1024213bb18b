import DBusCore
import DBusTestSupport
import NotificationBridgeAPI
import NotificationBridgeDaemon
import NotificationServerKit
import Testing

/// A notification server that hangs past the daemon's bound and then answers, or is replaced: nothing is left on the
/// screen that the daemon does not list, and a scheduled notification that came due meanwhile is shown, once.
@Suite("A server that hangs past the bound")
struct HungServerTests {
    @Test("Posts that timed out are not left showing when the hung server answers them late")
    func lateAnswersAreClosed() async throws {
        try await DaemonFixture.with(serverTimeout: .milliseconds(500)) { fixture in
            let server = try fixture.scripted
            await server.setNotifyAnswer(.never)
            for index in 0..<5 {
                let result = await outcome { try await fixture.post([PostKeys.title.name: .string("Stuck \(index)")]) }
                #expect(result.bridgeError == BridgeError.serverTimeout)
            }
            await server.setNotifyAnswer(.immediately)
            let events = fixture.events
            try await withTimeout(waitingFor: "the five late notifications to be shown and closed") {
                var shown: Set<UInt32> = []
                var closed: Set<UInt32> = []
                for await event in events {
                    if case .notified(let served) = event { shown.insert(served.id) }
                    if case .closed(let served, _) = event { closed.insert(served.id) }
                    if shown.count == 5, closed == shown { return }
                }
                throw TestSupportError("the server stopped")
            }
            let left = await server.notifications.map(\.summary)
            #expect(left.isEmpty, "the server still shows \(left)")
            let delivered = try await fixture.call(BridgeMethod.listDelivered.name, [.vardict([:])])
            #expect(delivered.first?.elements?.isEmpty == true)
        }
    }

    @Test("a scheduled notification whose Notify timed out is shown by the server that replaces the hung one")
    func dueDuringHangIsShownByTheNextServer() async throws {
        try await withPrivateBus { bus in
            let hungConnection = try await bus.connect()
            let hung = NotificationServer()
            await hung.setNotifyAnswer(.never)
            let hungEvents = hung.events()
            try await hung.start(on: hungConnection, profile: .fullFeatured, allowingReplacement: true)
            async let hungRunning: Void = hung.run()
            try await DaemonFixture.run(
                bus: bus, server: hung, events: hungEvents, serverTimeout: .milliseconds(500)
            ) { fixture in
                let id = try await fixture.post([
                    PostKeys.title.name: .string("Due"), PostKeys.delay.name: .double(0.05),
                ])
                try await fixture.nextHeldNotifies(1)
                // The daemon gives up on the hung server's answer: the notification is no longer being posted.
                try await withTimeout(waitingFor: "the Notify to time out") {
                    while try await fixture.delivered().contains(id) { try await Task.sleep(for: .milliseconds(20)) }
                }
                let connection = try await bus.connect()
                let next = NotificationServer()
                let events = next.events()
                try await next.start(on: connection, profile: .fullFeatured, replacingOwner: true)
                async let nextRunning: Void = next.run()
                let shown = try await withTimeout(waitingFor: "the next server to show the due notification") {
                    for await event in events {
                        if case .notified(let served) = event { return served }
                    }
                    throw TestSupportError("the server stopped")
                }
                #expect(shown.summary == "Due")
                try await withTimeout(waitingFor: "the daemon to list it as delivered") {
                    while try await !fixture.delivered().contains(id) { try await Task.sleep(for: .milliseconds(20)) }
                }
                let summaries = await next.notifications.map(\.summary)
                #expect(summaries == ["Due"], "the next server shows \(summaries)")
                await connection.close()
                await nextRunning
            }
            await hungConnection.close()
            await hungRunning
        }
    }

    @Test("a scheduled notification whose Notify timed out is shown once when the hung server answers again")
    func dueDuringHangIsShownOnceWhenTheServerResumes() async throws {
        try await DaemonFixture.with(serverTimeout: .milliseconds(500)) { fixture in
            let server = try fixture.scripted
            await server.setNotifyAnswer(.never)
            let id = try await fixture.post([PostKeys.title.name: .string("Due"), PostKeys.delay.name: .double(0.05)])
            try await fixture.nextHeldNotifies(1)
            try await withTimeout(waitingFor: "the Notify to time out") {
                while try await fixture.delivered().contains(id) { try await Task.sleep(for: .milliseconds(20)) }
            }
            await server.setNotifyAnswer(.immediately)
            try await withTimeout(waitingFor: "the daemon to list it as delivered") {
                while try await !fixture.delivered().contains(id) { try await Task.sleep(for: .milliseconds(20)) }
            }
            // Any copy shown by the call that timed out is closed: one copy stays, the one the daemon lists.
            try await withTimeout(waitingFor: "the server to show exactly one copy") {
                while await server.notifications.count != 1 { try await Task.sleep(for: .milliseconds(20)) }
            }
            let summaries = await server.notifications.map(\.summary)
            #expect(summaries == ["Due"])
        }
    }

    @Test("a scheduled notification withdrawn while its Notify is out is not shown again when that Notify times out")
    func withdrawnDuringHangStaysWithdrawn() async throws {
        try await DaemonFixture.with(serverTimeout: .milliseconds(500)) { fixture in
            let server = try fixture.scripted
            await server.setNotifyAnswer(.never)
            let id = try await fixture.post([PostKeys.title.name: .string("Due"), PostKeys.delay.name: .double(0.05)])
            try await fixture.nextHeldNotifies(1)
            _ = try await fixture.call(BridgeMethod.withdraw.name, [.string(id)])
            // Normally the withdrawal lands while that Notify is out. On a loaded machine it may land only after the
            // Notify timed out and the daemon asked again (0.5 s later), which is right for a notification not yet
            // withdrawn; what must hold either way is that nothing of it is asked for after the withdrawal.
            let heldAtWithdrawal = await server.heldSummaries
            #expect(heldAtWithdrawal.allSatisfy { $0 == "Due" } && !heldAtWithdrawal.isEmpty)
            // Due well after the withdrawn one's Notify timed out (0.5 s) and a try again would have been made (0.5 s
            // later): when the server holds this one, it holds no further copy of the withdrawn one.
            _ = try await fixture.post([PostKeys.title.name: .string("Marker"), PostKeys.delay.name: .double(3)])
            try await withTimeout(waitingFor: "the server to hold the marker") {
                while await !server.heldSummaries.contains("Marker") { try await Task.sleep(for: .milliseconds(20)) }
            }
            let held = await server.heldSummaries
            #expect(held == heldAtWithdrawal + ["Marker"], "the server was asked to show \(held)")

            await server.setNotifyAnswer(.immediately)
            // The late answer to the withdrawn one's Notify is closed: only the marker stays.
            try await withTimeout(waitingFor: "the server to show the marker alone") {
                while await server.notifications.map(\.summary) != ["Marker"] {
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
            #expect(try await !fixture.delivered().contains(id))
        }
    }
}

extension DaemonFixture {
    /// The ids `ListDelivered` lists.
    fileprivate func delivered() async throws -> [String] {
        let listed = try await call(BridgeMethod.listDelivered.name, [.vardict([:])]).first?.elements ?? []
        return listed.compactMap { $0.stringKeyedEntries?[ListedKeys.id.name]?.unwrappedVariant.stringValue }
    }
}
