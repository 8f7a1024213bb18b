import DBusTestSupport
import Foundation
import Logging
import Testing

@testable import NotificationBridge
@testable import NotificationBridgeDaemon
@testable import NotificationStore

/// A state folder that stops taking writes while the daemon runs (made read-only, or full): each change that must
/// be kept fails at once with an error saying what to do, and the log says so once, not at every post.
@Suite("the state folder stops taking writes")
struct StateWriteFailureTests {
    @Test("every commit fails with the folder named, the failure is logged once, the recovery too")
    func failingFolder() async throws {
        let directory = FileManager.default.temporaryDirectory.path + "/state-failure-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let entries = RecordingLogHandler.Entries()
        let commits = DurableCommits(
            directory: directory, logger: Logger(label: "test") { _ in RecordingLogHandler(entries: entries) })
        let lock = try await StateDirectoryLock.acquire(directory: directory, within: .seconds(1))
        let store = try DaemonStore(directory: directory)
        commits.open(store, lock: lock)
        store.injectWriteFailure(true)

        // How fast they fail is for the benchmark to measure; here: each one fails, and says where.
        for index in 0..<50 {
            let commit = commits.submit([.removeCategory(id: "c\(index)")])
            do {
                try await commit.wait()
                Issue.record("commit \(index) succeeded on a folder that takes no writes")
            } catch {
                #expect("\(error)".contains(directory), "\(error)")
            }
        }
        let errors = entries.all.filter { $0.0 >= .error }
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.1.contains(directory) == true)

        store.injectWriteFailure(false)
        try await commits.submit([.removeCategory(id: "after")]).wait()
        #expect(entries.all.contains { $0.0 == .notice && $0.1.contains("can be saved again") })
        await commits.close()
    }
}
