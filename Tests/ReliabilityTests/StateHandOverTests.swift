import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import Testing

extension Reliability {
    /// Two daemons and one state folder: only the one that owns the name and holds the folder's lock reads or writes
    /// it, and a hand-over with `--replace` passes every acknowledged post on.
    @Suite("daemons sharing a state folder")
    struct StateHandOverTests {
        static let clients = 4

        @Test("a daemon refused the name, started again and again during a burst of posts, loses none of them")
        func refusedDaemonDuringBurst() async throws {
            try await DaemonRig.with { rig in
                let first = try await rig.startDaemon()
                defer { first.stop() }
                let connections = try await rig.connections(Self.clients)
                defer { for connection in connections { Task { await connection.close() } } }
                let loop = PostLoop()
                async let posting: Void = loop.run(rig, connections: connections)
                var statuses: [Int32?] = []
                for round in 1...5 {
                    try await loop.waitForAcknowledged(round * 100)
                    let refused = try await rig.spawnDaemon()
                    statuses.append(await refused.wait(within: .seconds(20)))
                    _ = refused.stop()
                }
                loop.stop()
                await posting
                #expect(statuses.allSatisfy { $0 == 1 }, "the refused daemons' exit statuses: \(statuses)")
                #expect(rig.logText.contains("is already owned by"))

                #expect(first.stop() == 0, "log: \(rig.logText)")
                let second = try await rig.startDaemon()
                defer { second.stop() }
                let lost = try await loop.lost(rig)
                #expect(lost.isEmpty, "\(lost.count) of \(loop.acknowledged.all.count) acknowledged posts are lost")
                let files = try FileManager.default.contentsOfDirectory(atPath: rig.stateDirectory.path)
                #expect(!files.contains { $0.contains(".corrupt-") }, "\(files)")
            }
        }

        @Test("a daemon on another bus with the same state folder leaves it alone and names who holds it")
        func otherBusSameFolder() async throws {
            try await DaemonRig.with { rig in
                let first = try await rig.startDaemon()
                defer { first.stop() }
                var ids: Set<String> = []
                for index in 0..<3 {
                    ids.insert(
                        try await rig.post([
                            PostKeys.title.name: .string("Kept \(index)"), PostKeys.delay.name: .double(3600),
                        ]))
                }
                let before = try Self.fileIdentities(in: rig.stateDirectory)
                try await withPrivateBus { otherBus in
                    var environment = rig.environment
                    environment.merge(otherBus.environment) { _, other in other }
                    let second = try await rig.spawnDaemon(environment: environment)
                    let status = await second.wait(within: .seconds(40))
                    _ = second.stop()
                    #expect(status == 1, "the second daemon did not give up; log: \(rig.logText)")
                }
                #expect(try Self.fileIdentities(in: rig.stateDirectory) == before)
                let log = rig.logText
                #expect(log.contains(rig.stateDirectory.path), "\(log)")
                #expect(log.contains("process \(first.pid)"), "\(log)")
                // The first daemon goes on, with everything it had.
                #expect(first.poll() == nil)
                #expect(try await rig.pendingIDs() == ids)
            }
        }

        @Test("--replace during a burst of posts: the old daemon exits with 0, the new one has every acknowledged post")
        func replaceDuringBurst() async throws {
            try await DaemonRig.with { rig in
                let old = try await rig.startDaemon()
                defer { old.stop() }
                let connections = try await rig.connections(Self.clients)
                defer { for connection in connections { Task { await connection.close() } } }
                let loop = PostLoop()
                async let posting: Void = loop.run(rig, connections: connections)
                try await loop.waitForAcknowledged(300)
                let new = try await rig.spawnDaemon(["--replace"])
                defer { new.stop() }
                let oldStatus = await old.wait(within: .seconds(30))
                let handedOver = loop.acknowledged.all.count
                try await loop.waitForAcknowledged(handedOver + 300)
                loop.stop()
                await posting
                #expect(oldStatus == 0, "the old daemon's exit status; log: \(rig.logText)")
                #expect(new.poll() == nil, "the new daemon exited; log: \(rig.logText)")
                let lost = try await loop.lost(rig)
                #expect(lost.isEmpty, "\(lost.count) of \(loop.acknowledged.all.count) acknowledged posts are lost")
                let files = try FileManager.default.contentsOfDirectory(atPath: rig.stateDirectory.path)
                #expect(!files.contains { $0.contains(".corrupt-") }, "\(files)")
            }
        }

        /// Each file's name, inode, size and modification time: a file rewritten or replaced changes one of them.
        static func fileIdentities(in directory: URL) throws -> [String: [Int]] {
            var identities: [String: [Int]] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
                var status = stat()
                guard lstat(directory.appendingPathComponent(name).path, &status) == 0 else { continue }
                identities[name] = [
                    Int(status.st_ino), Int(status.st_size), status.st_mtim.tv_sec, status.st_mtim.tv_nsec,
                ]
            }
            return identities
        }
    }
}
