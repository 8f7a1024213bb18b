import Foundation
import Glibc
import NotificationModel
import Testing

@testable import NotificationStore

/// The store keeps its state only in a real directory, in regular files, and one process at a time: a link that
/// would redirect it, a FIFO that would hang its start, or a second daemon that would overwrite it is refused with a
/// message saying what to do.
@Suite("The store's files and lock")
struct StateFileSafetyTests {
    typealias Store = NotificationStoreTests.Store

    /// Opens the store on a thread of its own, failing the test when it does not return within `limit`.
    static func open(
        _ directory: String, within limit: TimeInterval = 10
    ) throws -> Result<Store, NotificationStoreError> {
        let done = DispatchSemaphore(value: 0)
        let result = OpenResult()
        Thread {
            do throws(NotificationStoreError) {
                result.value = .success(try Store(directory: directory))
            } catch {
                result.value = .failure(error)
            }
            done.signal()
        }.start()
        guard done.wait(timeout: .now() + limit) == .success, let value = result.value else {
            throw StoreTestError("the store did not open within \(limit) s: it waits on something that is not a file")
        }
        return value
    }

    final class OpenResult: @unchecked Sendable {
        // Written by the opening thread before it signals, read after the wait: the semaphore orders them.
        var value: Result<Store, NotificationStoreError>?
    }

    struct StoreTestError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Expects `result` to be a refusal of `path` as `kind`, whose message says what to do.
    static func expectRefused(
        _ result: Result<Store, NotificationStoreError>, path: String, kind: String, isDirectory: Bool
    ) {
        guard case .failure(let error) = result else {
            Issue.record("the store opened through \(kind) at \(path)")
            return
        }
        #expect(error == .notRegular(path: path, kind: kind, isDirectory: isDirectory))
        #expect(error.description.contains(path) && error.description.contains(kind))
        #expect(error.description.contains(isDirectory ? "XDG_STATE_HOME" : "move it away"))
    }

    @Test("a state directory that is a symbolic link is refused, and what it points to is left alone")
    func linkedDirectory() throws {
        let temporary = NotificationStoreTests.TemporaryDirectory()
        let target = temporary.path + "-elsewhere"
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: temporary.path, withDestinationPath: target)
        Self.expectRefused(
            try Self.open(temporary.path), path: temporary.path, kind: "a symbolic link", isDirectory: true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: target).isEmpty)
    }

    @Test(
        "a state file that is a symbolic link is refused, and its target is left alone",
        arguments: [Store.databaseName])
    func linkedFile(name: String) throws {
        let temporary = NotificationStoreTests.TemporaryDirectory()
        _ = try Self.open(temporary.path).get()
        let target = temporary.path + "/../precious"
        try Data("precious".utf8).write(to: URL(fileURLWithPath: target))
        let path = temporary.path + "/" + name
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        Self.expectRefused(try Self.open(temporary.path), path: path, kind: "a symbolic link", isDirectory: false)
        #expect(FileManager.default.contents(atPath: target) == Data("precious".utf8))
    }

    @Test(
        "a FIFO in place of a state file is refused at once instead of hanging the start",
        arguments: [Store.databaseName])
    func fifo(name: String) throws {
        let temporary = NotificationStoreTests.TemporaryDirectory()
        _ = try Self.open(temporary.path).get()
        let path = temporary.path + "/" + name
        try? FileManager.default.removeItem(atPath: path)
        #expect(mkfifo(path, 0o600) == 0)
        Self.expectRefused(try Self.open(temporary.path, within: 5), path: path, kind: "a FIFO", isDirectory: false)
    }

    @Test("a second holder of the directory's lock waits its bound, then is told which process holds it")
    func lockHeld() async throws {
        let temporary = NotificationStoreTests.TemporaryDirectory()
        let first = try await StateDirectoryLock.acquire(directory: temporary.path, within: .seconds(1))
        let started = ContinuousClock.now
        await #expect(
            throws: NotificationStoreError.locked(
                directory: temporary.path, holder: getpid(), waited: .milliseconds(300))
        ) {
            _ = try await StateDirectoryLock.acquire(directory: temporary.path, within: .milliseconds(300))
        }
        // It waited for the holder rather than failing at once (how much longer a loaded machine takes is no
        // concern of this test).
        #expect(ContinuousClock.now - started >= .milliseconds(300))
        let message = NotificationStoreError.locked(directory: temporary.path, holder: getpid(), waited: .seconds(15))
            .description
        #expect(message.contains(temporary.path) && message.contains("process \(getpid())"))
        // Once let go, the next one takes it.
        first.release()
        let second = try await StateDirectoryLock.acquire(directory: temporary.path, within: .seconds(1))
        second.release()
    }
}
