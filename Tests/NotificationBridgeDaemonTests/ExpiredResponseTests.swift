import DBusCore
import DBusTestSupport
import NotificationBridgeAPI
import NotificationServerKit
import Testing

/// A response kept for a `WaitForResponse` that comes late, after many other notifications ended: it comes back, or
/// the caller is told it expired, never that the id Post returned is wrong.
@Suite("Kept responses and late waits")
struct ExpiredResponseTests {
    /// More ended notifications than the daemon keeps (1,024).
    static let others = 1_100
    /// Posts each of the test's lanes keeps in flight.
    static let window = 8

    @Test("1,100 ended notifications between a click and the wait: the answer comes back, or Error.Expired says why")
    func lateWaitAfterManyEnded() async throws {
        try await DaemonFixture.with { fixture in
            let responded = try await fixture.client.signals(
                matching: DBusMatchRule(
                    sender: BridgeAPI.busName, path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName,
                    member: BridgeSignal.responded.name))
            let id = try await fixture.post([
                PostKeys.title.name: .string("Deploy?"), PostKeys.appName.name: .string("Deploys"),
                PostKeys.actions.name: ActionList.plain(id: "go", activation: "background"),
            ])
            let shown = try await fixture.nextNotification()
            try await fixture.scripted.invokeAction(id: shown.id, key: "go")
            _ = try await responded.first(waitingFor: "Responded for the clicked notification")

            // Others come and end: posted, then withdrawn.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for lane in 0..<Self.window {
                    group.addTask {
                        for index in stride(from: lane, to: Self.others, by: Self.window) {
                            let other = try await fixture.post([
                                PostKeys.title.name: .string("Other \(index)"),
                                PostKeys.appName.name: .string("Others"),
                            ])
                            try await fixture.call(BridgeMethod.withdraw.name, [.string(other)])
                        }
                    }
                }
                try await group.waitForAll()
            }

            do {
                let answer = try await fixture.call(BridgeMethod.waitForResponse.name, [.string(id)])
                #expect(answer.first == .string("go"), "the kept answer: \(answer)")
            } catch let failure as DBusFailure {
                #expect(
                    failure.name == BridgeError.expired.rawValue,
                    "a late wait for an id Post returned is told it expired, not that the id is wrong: \(failure)")
                #expect(failure.message.contains(id) && failure.message.contains("no longer kept"), "\(failure)")
            }
            // Withdrawing it is what was asked for: it is gone already.
            try await fixture.call(BridgeMethod.withdraw.name, [.string(id)])
            // An id never issued is still told apart.
            await #expect(throws: DBusFailure.self) {
                try await fixture.call(BridgeMethod.waitForResponse.name, [.string("0123456789abcdef")])
            }
            do {
                try await fixture.call(BridgeMethod.waitForResponse.name, [.string("0123456789abcdef")])
            } catch let failure as DBusFailure {
                #expect(failure.name == BridgeError.unknownNotification.rawValue, "\(failure)")
            }
        }
    }
}
