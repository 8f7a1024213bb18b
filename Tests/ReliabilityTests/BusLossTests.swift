import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationBridgeDaemon
import Testing

extension Reliability {
    /// The session bus dies (its `dbus-daemon` is killed) while clients have calls in flight to the daemon.
    @Suite("the bus goes away")
    struct BusLossTests {
        @Test("the daemon exits with status 1 and says why; every call in flight fails with Disconnected, none hangs")
        func busKilledWithCallsInFlight() async throws {
            try await DaemonRig.with { rig in
                let daemon = try await rig.startDaemon()
                defer { daemon.stop() }
                let id = try await rig.post([
                    PostKeys.title.name: .string("Waiting"), PostKeys.actions.name: plainActions("ok"),
                    PostKeys.timeout.name: .int32(0),
                ])
                // A call the daemon holds (it answers only when the user acts), and a stream of posts.
                let waiting = Task {
                    try await rig.call(BridgeMethod.waitForResponse.name, [.string(id)], timeout: .seconds(120))
                }
                try await rig.call(BridgeMethod.listCategories.name)
                let posters = try await withThrowingTaskGroup(of: DBusConnection.self) { group in
                    for _ in 0..<4 { group.addTask { try await rig.bus.connect() } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                let started = Collector<Int>()
                let posting = posters.map { connection in
                    Task {
                        var failures: [any Error] = []
                        for index in 0..<1_000_000 {
                            started.append(index)
                            do {
                                _ = try await rig.post(
                                    [PostKeys.title.name: .string("Burst \(index)")], from: connection)
                            } catch {
                                failures.append(error)
                                return failures
                            }
                        }
                        return failures
                    }
                }
                try await withTimeout(waitingFor: "the posts to get going") {
                    while started.all.count < 40 { try await Task.sleep(for: .milliseconds(5)) }
                }

                rig.bus.stop()
                let status = await daemon.wait(within: .seconds(10))
                #expect(status == 1, "log: \(rig.logText)")
                #expect(
                    rig.logText.contains("notification-bridged: the connection to the session bus closed"),
                    "log: \(rig.logText)")

                let waited = try await withTimeout(waitingFor: "the held WaitForResponse to end") {
                    await waiting.result
                }
                #expect(throws: DBusFailure.self) { try waited.get() }
                #expect(
                    (waited.failure as? DBusFailure)?.name == DBusFailure.Name.disconnected,
                    "\(String(describing: waited.failure))")
                for task in posting {
                    let failures = try await withTimeout(waitingFor: "a posting client to see the end") {
                        await task.value
                    }
                    #expect(failures.count == 1)
                    #expect(failures.first?.dbusName == DBusFailure.Name.disconnected, "\(failures)")
                }
                for connection in posters { await connection.close() }
            }
        }
    }
}

extension Result {
    /// The error, for a failure.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
