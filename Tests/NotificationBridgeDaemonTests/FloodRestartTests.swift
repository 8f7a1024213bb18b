import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationServerKit
import Testing

/// Flood control across a crash of `notification-bridged`: nothing a fold counted is lost.
@Suite("Flood control across a daemon restart")
struct FloodRestartTests {
    @Test("after kill -9 and a restart, the posts a fold counted are in the history, and the ones shown stay listed")
    func foldedAfterRestart() async throws {
        try await SchedulingTests.withSetup(.plasma) { setup in
            let first = try await setup.startDaemon()
            _ = try await setup.gdbus(BridgeMethod.setSettings.name, "Mail", "{'flood-limit': <'2/1m'>}")
            var ids: [String] = []
            for index in 0..<5 {
                ids.append(
                    try postedID(
                        try await setup.gdbus(
                            BridgeMethod.post.name, "{'title': <'Mail \(index)'>, 'app-name': <'Mail'>}")))
            }
            let server = setup.server
            try await withTimeout(waitingFor: "the fold on the server; daemon log: \(setup.logText)") {
                while await !server.shownNotifications.contains(where: { $0.summary == "Mail: 3 more" }) {
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
            first.signal(SIGKILL)
            #expect(await first.wait(within: .seconds(10)) == 128 + SIGKILL)
            let second = try await setup.startDaemon()
            defer { second.stop() }

            let delivered = try await setup.gdbus(BridgeMethod.listDelivered.name, "{'app-name': <'Mail'>}")
            #expect(ids.prefix(2).allSatisfy { delivered.contains("'id': <'\($0)'>") }, "\(delivered)")
            #expect(!ids.suffix(3).contains { delivered.contains("'id': <'\($0)'>") }, "\(delivered)")
            let history = try await setup.gdbus(BridgeMethod.listHistory.name, "{'app-name': <'Mail'>}")
            #expect(ids.suffix(3).allSatisfy { history.contains("'id': <'\($0)'>") }, "\(history)")
        }
    }
}
