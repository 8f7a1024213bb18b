import DBusCore
import DBusTestSupport
import NotificationBridgeAPI
import NotificationBridgeDaemon
import Testing

/// A `WithdrawAll` writes the history of everything it withdrew in the commit it is answered after, within the
/// history's bound on entries.
@Suite("History of a WithdrawAll")
struct WithdrawAllHistoryTests {
    @Test("a WithdrawAll of more than the history keeps leaves its newest there, once answered, and nothing older")
    func boundedBatch() async throws {
        try await DaemonFixture.with(history: HistoryBounds(days: 7, limit: 3)) { fixture in
            let earlier = try await fixture.post([
                PostKeys.title.name: .string("Earlier"), PostKeys.appName.name: .string("CI"),
            ])
            _ = try await fixture.nextNotification()
            try await fixture.call(BridgeMethod.withdraw.name, [.string(earlier)])
            // Showing ones and a scheduled one, all withdrawn by the one call.
            var showing: [String] = []
            for index in 0..<5 {
                showing.append(
                    try await fixture.post([
                        PostKeys.title.name: .string("Build \(index)"), PostKeys.appName.name: .string("CI"),
                    ]))
                _ = try await fixture.nextNotification()
            }
            _ = try await fixture.post([
                PostKeys.title.name: .string("Nightly"), PostKeys.appName.name: .string("CI"),
                PostKeys.delay.name: .double(86_400),
            ])
            let withdrawn = try await fixture.call(
                BridgeMethod.withdrawAll.name, [.vardict([FilterKeys.appName.name: .string("CI")])])
            guard case .array(_, let ids) = withdrawn.first else { throw TestSupportError("not a list: \(withdrawn)") }
            #expect(ids.count == 6)

            // Listed at once: the call was answered once its history was on disk. A scheduled notification never
            // shown has no history; of the showing ones, withdrawn in the order of their ids, the newest three.
            let entries = try await HistoryTests.history(fixture, [FilterKeys.appName.name: .string("CI")])
            #expect(entries.map(\.id) == showing.sorted().suffix(3).reversed(), "the three newest, newest first")
            #expect(entries.allSatisfy { $0.ending == .withdrawn }, "\(entries.map(\.ending))")
            #expect(!entries.contains { $0.id == earlier }, "the entry older than the withdrawal is dropped")
        }
    }
}
