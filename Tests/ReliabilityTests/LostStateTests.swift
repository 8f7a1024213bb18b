import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationStore
import Testing

extension Reliability {
    /// A state that comes back with less than was acknowledged: the daemon cannot bring it back, but it must say so
    /// in its log (what it found, what is lost, where the files went) rather than start with nothing and no word.
    @Suite("a state that comes back emptier than what was acknowledged")
    struct LostStateTests {
        static let appName = "Lost"
        /// What the log says of such a state.
        static let report = "came back with fewer changes than were saved"

        /// Posts `count` notifications scheduled an hour ahead; returns their ids.
        static func schedule(_ count: Int, on rig: DaemonRig) async throws -> Set<String> {
            var ids: Set<String> = []
            for index in 0..<count {
                ids.insert(
                    try await rig.post([
                        PostKeys.title.name: .string("Kept \(index)"), PostKeys.appName.name: .string(appName),
                        PostKeys.delay.name: .double(3600),
                    ]))
            }
            return ids
        }

        /// Starts the daemon and returns once it has opened its state (it owns its name first): its log then says
        /// what it found.
        static func start(_ rig: DaemonRig) async throws -> ChildProcess {
            let daemon = try await rig.startDaemon()
            _ = try await rig.pendingIDs()
            return daemon
        }

        /// Kills the daemon as a crash would, leaving its write-ahead log behind.
        static func crash(_ daemon: ChildProcess) async {
            daemon.signal(SIGKILL)
            #expect(await daemon.wait(within: .seconds(10)) == 128 + SIGKILL)
        }

        /// The names in the state directory moved or copied aside.
        static func setAside(_ rig: DaemonRig) throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: rig.stateDirectory.path)
                .filter { $0.contains(".corrupt-") }.sorted()
        }

        @Test("kill -9 with the log intact loses nothing and says nothing; then a deleted log is reported")
        func deletedLog() async throws {
            try await DaemonRig.with { rig in
                let first = try await rig.startDaemon()
                let kept = try await Self.schedule(10, on: rig)
                await Self.crash(first)
                let second = try await Self.start(rig)
                #expect(try await rig.pendingIDs([FilterKeys.appName.name: .string(Self.appName)]) == kept)
                #expect(!rig.logText.contains(Self.report), "an intact state is not reported: \(rig.logText)")

                _ = try await Self.schedule(10, on: rig)
                await Self.crash(second)
                let database = rig.stateDirectory.appendingPathComponent("state.db").path
                #expect(FileManager.default.fileExists(atPath: database + "-wal"), "kill -9 leaves the log")
                try FileManager.default.removeItem(atPath: database + "-wal")
                try? FileManager.default.removeItem(atPath: database + "-shm")

                let third = try await Self.start(rig)
                defer { third.stop() }
                let log = rig.logText
                #expect(log.contains(Self.report), "a lost log is reported: \(log)")
                #expect(log.contains("state.db-wal was missing"), "\(log)")
                #expect(try Self.setAside(rig).isEmpty, "nothing of the lost changes is left to copy aside")
                #expect(log.contains("Nothing of the lost changes was left"), "\(log)")
                // It goes on: a post is kept, and the next start reports nothing more.
                _ = try await Self.schedule(1, on: rig)
                third.stop()
                let fourth = try await Self.start(rig)
                defer { fourth.stop() }
                #expect(rig.logText.components(separatedBy: Self.report).count == 2, "reported once: \(rig.logText)")
            }
        }

        @Test("a write-ahead log damaged after kill -9 is reported, and both files are copied aside as found")
        func damagedLog() async throws {
            try await DaemonRig.with { rig in
                let first = try await rig.startDaemon()
                _ = try await Self.schedule(10, on: rig)
                await Self.crash(first)
                let log = rig.stateDirectory.appendingPathComponent("state.db-wal").path
                let handle = try #require(FileHandle(forUpdatingAtPath: log))
                // The first frame's page (after the log's 32-byte header and the frame's 24): its checksum fails, and
                // SQLite reads nothing of the log from there.
                try handle.seek(toOffset: 32 + 24 + 100)
                handle.write(Data(repeating: 0xA5, count: 512))
                try handle.close()

                let second = try await Self.start(rig)
                defer { second.stop() }
                let text = rig.logText
                #expect(text.contains(Self.report), "a damaged log is reported: \(text)")
                #expect(text.contains("damaged or cut short"), "\(text)")
                let copies = try Self.setAside(rig)
                #expect(copies.count == 2, "the damaged log is copied aside with its database: \(copies)")
                #expect(copies.contains { $0.hasSuffix("-wal") }, "\(copies)")
                for copy in copies { #expect(text.contains(copy), "the log names \(copy): \(text)") }
            }
        }

        @Test("an emptied state.db (0 bytes) is reported")
        func emptiedDatabase() async throws {
            try await DaemonRig.with { rig in
                let first = try await rig.startDaemon()
                _ = try await Self.schedule(5, on: rig)
                #expect(first.stop() == 0, "a graceful stop; log: \(rig.logText)")
                let database = rig.stateDirectory.appendingPathComponent("state.db").path
                #expect(truncate(database, 0) == 0)
                try? FileManager.default.removeItem(atPath: database + "-wal")
                try? FileManager.default.removeItem(atPath: database + "-shm")

                let second = try await Self.start(rig)
                defer { second.stop() }
                let log = rig.logText
                #expect(log.contains(Self.report), "an emptied file is reported: \(log)")
                #expect(log.contains("state.db was empty (0 bytes)"), "\(log)")
                #expect(try await rig.pendingIDs([FilterKeys.appName.name: .string(Self.appName)]).isEmpty)
            }
        }
    }
}
