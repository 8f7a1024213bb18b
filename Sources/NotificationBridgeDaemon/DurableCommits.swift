import Foundation
import NotificationBridge
import NotificationBridgeAPI
import Synchronization

/// Writes the daemon's changes to its store on a thread of its own, so that no actor waits on the disk, and groups
/// the changes that arrive while a write is under way into the next write: the posts that come together share one
/// `fdatasync`.
///
/// ``submit(_:)`` is synchronous, so changes reach the disk in the order the caller submitted them; the caller
/// awaits the returned ``Commit`` only where its answer must wait for durability.
final class DurableCommits: Sendable {
    /// One submitted group of changes: durable once ``wait()`` returns.
    final class Commit: Sendable {
        private enum State {
            case writing([CheckedContinuation<Void, any Error>])
            case done(Result<Void, NotificationStoreError>)
        }

        private let state = Mutex(State.writing([]))

        /// Returns once the changes are on disk.
        ///
        /// - Throws: the store's error when they could not be written.
        func wait() async throws {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let result = state.withLock { state -> Result<Void, NotificationStoreError>? in
                    switch state {
                    case .writing(let waiting):
                        state = .writing(waiting + [continuation])
                        return nil
                    case .done(let result):
                        return result
                    }
                }
                if let result { continuation.resume(with: result) }
            }
        }

        /// The outcome, once known; `nil` while the write is under way.
        var result: Result<Void, NotificationStoreError>? {
            state.withLock { state in
                if case .done(let result) = state { return result }
                return nil
            }
        }

        fileprivate func finish(_ result: Result<Void, NotificationStoreError>) {
            let waiting = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
                defer { state = .done(result) }
                if case .writing(let waiting) = state { return waiting }
                return []
            }
            for continuation in waiting { continuation.resume(with: result.mapError { $0 }) }
        }
    }

    private struct Queue {
        var batches: [(changes: [DaemonStore.Change], commit: Commit)] = []
        var writerRuns = false
    }

    let store: DaemonStore
    private let queue = Mutex(Queue())

    init(store: DaemonStore) {
        self.store = store
    }

    /// Queues `changes` for the disk, behind every change submitted before.
    @discardableResult
    func submit(_ changes: [DaemonStore.Change]) -> Commit {
        let commit = Commit()
        let startsWriter = queue.withLock { queue -> Bool in
            queue.batches.append((changes, commit))
            defer { queue.writerRuns = true }
            return !queue.writerRuns
        }
        if startsWriter {
            let thread = Thread { [self] in writeUntilEmpty() }
            thread.name = "state writer"
            thread.start()
        }
        return commit
    }

    /// Returns once everything submitted so far is written (or failed).
    func flush() async {
        try? await submit([]).wait()
    }

    private func writeUntilEmpty() {
        while true {
            let batches = queue.withLock { queue in
                defer { queue.batches = [] }
                if queue.batches.isEmpty { queue.writerRuns = false }
                return queue.batches
            }
            guard !batches.isEmpty else { return }
            let changes = batches.flatMap(\.changes)
            let result: Result<Void, NotificationStoreError>
            do throws(NotificationStoreError) {
                if !changes.isEmpty { try store.apply(changes) }
                result = .success(())
            } catch {
                result = .failure(error)
            }
            for batch in batches { batch.commit.finish(result) }
        }
    }
}
