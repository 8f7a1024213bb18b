import Dispatch
import FoundationEssentials
import Logging
import ProcessSupport
import Synchronization

/// Writes an owner's changes to its ``NotificationStore`` on a thread of its own, so that no actor waits on the disk,
/// and groups the changes that arrive while a write is under way into the next write: the posts that come together
/// share one transaction.
///
/// It also owns the lock of the state directory from ``open(_:lock:)`` to ``close()``: nothing is written outside that
/// span, so a daemon that hands over (`--replace`) has written everything before the next one reads.
///
/// ``submit(_:)`` is synchronous, so changes reach the disk in the order the caller submitted them; the caller
/// awaits the returned ``Commit`` only where its answer must wait for durability.
package final class StoreWriter<Payload, Category, Route>: Sendable
where Payload: Codable & Sendable, Category: Codable & Sendable, Route: Codable & Sendable {
    /// One submitted group of changes: durable once ``StoreCommit/wait()`` returns.
    package typealias Commit = StoreCommit
    /// The store it writes to.
    package typealias Store = NotificationStore<Payload, Category, Route>

    private struct Queue {
        var batches: [(changes: [Store.Change], commit: Commit)] = []
        var writerStarted = false
        /// `nil` until ``open(_:lock:)``: the daemon takes the store's lock only once it owns its bus name.
        var store: Store?
        var lock: StateDirectoryLock?
        /// The state read when the store opened, until ``releaseRestoredState()``.
        var restored: Store.State?
        var isClosed = false
        /// Whether the last write failed: the next failure is not logged again, the next success is.
        var isFailing = false
        /// How many submitted changes that write a scheduled notification's row are not written yet, by id: a read
        /// of that row waits for them, a read of any other does not.
        var unwrittenRows: [String: Int] = [:]

        mutating func count(_ changes: [Store.Change], by step: Int) {
            for case .schedule(let notification) in changes {
                let count = unwrittenRows[notification.id, default: 0] + step
                unwrittenRows[notification.id] = count > 0 ? count : nil
            }
        }
    }

    /// The state directory.
    package let directory: String
    private let logger: Logger
    private let queue = Mutex(Queue())
    /// Signalled once per submitted batch; the writer thread sleeps on it, so an idle daemon never wakes.
    private let wakeUp = DispatchSemaphore(value: 0)

    /// Commits to the store in `directory`, once ``open(_:lock:)`` has handed it over; until then every commit fails.
    package init(directory: String, logger: Logger) {
        self.directory = directory
        self.logger = logger
    }

    /// Starts writing to `store`, whose directory `lock` holds until ``close()``.
    package func open(_ store: Store, lock: StateDirectoryLock) {
        queue.withLock { queue in
            queue.store = store
            queue.lock = lock
            queue.restored = store.takeOpenedState()
        }
    }

    /// The state the store held when it opened; empty before ``open(_:lock:)`` and after
    /// ``releaseRestoredState()``.
    package var state: Store.State {
        queue.withLock { $0.restored } ?? Store.State()
    }

    /// Lets go of the state read at the start, once it is restored: from then on it is only on disk. The memory its
    /// reading took goes back to the system.
    package func releaseRestoredState() {
        queue.withLock { $0.restored = nil }
        HeapTrim.releaseFreePages()
    }

    /// Queues `changes` for the disk, behind every change submitted before.
    @discardableResult
    package func submit(_ changes: [Store.Change]) -> Commit {
        let commit = Commit()
        let (isClosed, startsWriter) = queue.withLock { queue -> (Bool, Bool) in
            if queue.isClosed { return (true, false) }
            queue.batches.append((changes, commit))
            queue.count(changes, by: 1)
            defer { queue.writerStarted = true }
            return (false, !queue.writerStarted)
        }
        if isClosed {
            commit.finish(.failure(.closed(directory: directory)))
            return commit
        }
        // One thread for the daemon's life: starting one per write costs more than the write on a busy machine.
        if startsWriter {
            DesktopWorkerThread.detach(name: "state writer") { [self] in writeUntilClosed() }
        }
        wakeUp.signal()
        return commit
    }

    /// Returns once everything submitted so far is written (or failed).
    package func flush() async {
        try? await submit([]).wait()
    }

    /// The payload of the scheduled notification `id` as the store has it, decoded as `Value` (a part of the payload,
    /// or the whole of it when the owner keeps only a part in memory), read once what was submitted for it is
    /// written; `nil` when the store has none (it was never saved, or is withdrawn).
    ///
    /// Read on the caller's thread: one row, which the store's page cache usually holds.
    ///
    /// - Throws: ``NotificationStoreError`` when the row or the file cannot be read, or the store is closed.
    package func storedPayload<Value: Decodable>(
        _ type: Value.Type, id: String
    ) async throws(NotificationStoreError) -> Value? {
        try await openStore(awaiting: { $0[id] != nil }).readPending(PayloadOfRow<Value>.self, id: id)?.payload
    }

    /// The bytes every scheduled notification keeps at `path` of its payload (see
    /// ``NotificationStore/readPendingBytes(inPayloadAt:)``), by id, read once every scheduled notification submitted
    /// is written: `nil` for one that has no such value.
    ///
    /// - Throws: ``NotificationStoreError`` when the file cannot be read, or the store is closed.
    package func storedBytes(inPayloadAt path: [String]) async throws(NotificationStoreError) -> [String: RowBytes?] {
        try await openStore(awaiting: { !$0.isEmpty }).readPendingBytes(inPayloadAt: path)
    }

    /// The store, once everything submitted before is written.
    func writtenStore() async throws(NotificationStoreError) -> Store {
        try await openStore(awaiting: { _ in true })
    }

    /// The store, once what was submitted before is written when `mustWait` says so of the rows not written yet.
    private func openStore(
        awaiting mustWait: ([String: Int]) -> Bool
    ) async throws(NotificationStoreError) -> Store {
        if queue.withLock({ mustWait($0.unwrittenRows) }) { await flush() }
        guard let store = queue.withLock({ $0.isClosed ? nil : $0.store }) else {
            throw .closed(directory: directory)
        }
        return store
    }

    /// Writes what was submitted, then lets the directory go: later commits fail with
    /// ``NotificationStoreError/closed(directory:)``, and another daemon may take the directory over.
    package func close() async {
        await flush()
        let (store, lock) = queue.withLock { queue in
            queue.isClosed = true
            return (queue.store, queue.lock)
        }
        // The writer finishes what is queued (nothing, after the flush) and ends.
        wakeUp.signal()
        // Closed before the lock goes: the next daemon opens a database no one writes.
        store?.close()
        lock?.release()
    }

    private func writeUntilClosed() {
        while true {
            wakeUp.wait()
            switch writeQueued() {
            case .closed: return
            case .written: break
            case .reclaimed:
                // A large deletion (a withdrawal of thousands): the daemon has let go of them too, and the batches
                // are released by now, so the heap's free pages go back to the system with the file's space.
                HeapTrim.releaseFreePages()
            }
        }
    }

    /// What ``writeQueued()`` did.
    private enum WriteOutcome {
        /// Nothing was queued, and the store is closed.
        case closed
        /// The batches were written (or failed).
        case written
        /// The batches were written and the file gave space back.
        case reclaimed
    }

    /// Writes the batches queued so far, in one transaction.
    private func writeQueued() -> WriteOutcome {
        let (batches, store, isClosed) = queue.withLock { queue in
            defer { queue.batches = [] }
            return (queue.batches, queue.store, queue.isClosed)
        }
        if batches.isEmpty {
            // Else its batch went with an earlier signal's.
            return isClosed ? .closed : .written
        }
        let result: Result<Void, NotificationStoreError>
        do throws(NotificationStoreError) {
            guard let store, !isClosed else { throw .closed(directory: directory) }
            // The route of a notification still showing is never dropped: each is forgotten when its notification
            // ends (closed, withdrawn), so the routes kept are those of what the server shows. A closure, not a key
            // path: in generic code a key path literal is built at run time at each use, its types demangled.
            try store.apply(batches.flatMap { $0.changes })
            result = .success(())
        } catch {
            result = .failure(error)
        }
        report(result)
        queue.withLock { queue in
            for batch in batches { queue.count(batch.changes, by: -1) }
        }
        for batch in batches { batch.commit.finish(result) }
        // After the answers: a large withdrawal gives the file's space back without holding them up.
        return !isClosed && store?.reclaimSpace() == true ? .reclaimed : .written
    }

    /// Logs the first failure of a run of them, and the end of the run: a folder that became read-only is said once,
    /// not at every post.
    private func report(_ result: Result<Void, NotificationStoreError>) {
        if case .failure(.closed) = result { return }
        let wasFailing = queue.withLock { queue in
            defer { queue.isFailing = (try? result.get()) == nil }
            return queue.isFailing
        }
        switch (result, wasFailing) {
        case (.failure(let error), false):
            let message =
                "cannot save the daemon's state; until it can, posts that must be kept (scheduled ones, "
                + "categories, notifications with exec or app-action) fail at once with Error.ServerError"
            logger.error(
                "\(message)",
                metadata: [
                    "error": "\(error)", "state.directory": "\(directory)",
                ])
        case (.success, true):
            logger.notice("the daemon's state can be saved again", metadata: ["state.directory": "\(directory)"])
        default:
            break
        }
    }
}

/// One submitted group of changes of a ``StoreWriter``: durable once ``wait()`` returns.
package final class StoreCommit: Sendable {
    private enum State {
        case writing([CheckedContinuation<Void, any Error>])
        case done(Result<Void, NotificationStoreError>)
    }

    private let state = Mutex(State.writing([]))

    /// Returns once the changes are on disk.
    ///
    /// - Throws: the store's error when they could not be written.
    package func wait() async throws {
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

    fileprivate func finish(_ result: Result<Void, NotificationStoreError>) {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            defer { state = .done(result) }
            if case .writing(let waiting) = state { return waiting }
            return []
        }
        for continuation in waiting { continuation.resume(with: result.mapError { $0 }) }
    }
}
