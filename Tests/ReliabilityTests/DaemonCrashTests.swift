import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationBridgeDaemon
import NotificationServerKit
import Synchronization
import Testing

extension Reliability {
    /// `kill -9` of `notification-bridged` in the middle of a burst of scheduled posts from concurrent clients.
    @Suite("the daemon is killed during a burst")
    struct DaemonCrashTests {
        static let clients = 10
        static let postsPerClient = 100
        /// Posts each client keeps in flight at once.
        static let window = 8

        @Test("every Post that got a reply is pending after a restart, and the store opens without complaint")
        func killDuringBurst() async throws {
            try await DaemonRig.with { rig in
                let first = try await rig.startDaemon()
                defer { first.stop() }
                let connections = try await withThrowingTaskGroup(of: DBusConnection.self) { group in
                    for _ in 0..<Self.clients { group.addTask { try await rig.bus.connect() } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                defer { for connection in connections { Task { await connection.close() } } }
                let replied = Collector<String>()
                let total = Self.clients * Self.postsPerClient
                // Killed at a point chosen by the seed: somewhere in the middle of the burst.
                let seed = UInt64.random(in: 0...UInt64.max)
                var generator = SeededGenerator(seed: seed)
                let killAfter = Int.random(in: total / 5...(total * 4 / 5), using: &generator)

                await withTaskGroup(of: Void.self) { group in
                    for (client, connection) in connections.enumerated() {
                        group.addTask {
                            await withTaskGroup(of: Void.self) { calls in
                                for index in 0..<Self.postsPerClient {
                                    if index >= Self.window { await calls.next() }
                                    calls.addTask {
                                        let reply = await outcome {
                                            try await rig.post(
                                                [
                                                    PostKeys.title.name: .string("Burst \(client)-\(index)"),
                                                    PostKeys.appName.name: .string("Burst"),
                                                    PostKeys.delay.name: .double(3600),
                                                ], from: connection)
                                        }
                                        guard case .success(let id) = reply else { return }
                                        if replied.append(id) == killAfter { first.signal(SIGKILL) }
                                    }
                                }
                            }
                        }
                    }
                }
                let status = await first.wait(within: .seconds(10))
                #expect(status == 128 + SIGKILL, "seed \(seed): the daemon was not killed; log: \(rig.logText)")
                let acknowledged = Set(replied.all)
                #expect(acknowledged.count >= killAfter, "seed \(seed)")

                let second = try await rig.startDaemon()
                defer { second.stop() }
                let pending = try await rig.listed(
                    BridgeMethod.listPending.name, [FilterKeys.appName.name: .string("Burst")])
                let pendingIDs = Set(pending.compactMap { $0[ListedKeys.id.name]?.unwrappedVariant.stringValue })
                let lost = acknowledged.subtracting(pendingIDs)
                #expect(
                    lost.isEmpty, "seed \(seed): \(lost.count) of \(acknowledged.count) acknowledged posts are lost")
                #expect(pending.count <= total, "seed \(seed)")
                #expect(
                    pending.allSatisfy {
                        $0[PostKeys.title.name]?.unwrappedVariant.stringValue?.hasPrefix("Burst ") == true
                    })
                let log = rig.logText
                #expect(!log.contains("could not be read"), "seed \(seed): \(log)")
                let files = try FileManager.default.contentsOfDirectory(atPath: rig.stateDirectory.path)
                #expect(!files.contains { $0.contains(".corrupt-") }, "seed \(seed): \(files)")
                #expect(second.poll() == nil)
                // And it keeps working: one more post is pending at once.
                let more = try await rig.post([
                    PostKeys.title.name: .string("After"), PostKeys.appName.name: .string("Burst"),
                    PostKeys.delay.name: .double(3600),
                ])
                #expect(try await rig.pendingIDs([FilterKeys.appName.name: .string("Burst")]).contains(more))
            }
        }
    }
}
