import NotificationBridgeAPI
import Synchronization

/// The user's settings as a center or the daemon reads them on every post: kept in memory once read, and read again
/// from the ``NotificationSettingsStore`` when the store reports a change, so that a post in the steady state costs no
/// hop to the store's thread.
///
/// Whoever owns the cache runs ``run()`` as a child of its own task group, next to the work that reads the settings:
/// the cache has no task of its own, so it lives exactly as long as that group runs it.
package final class CachedSettings: Sendable {
    /// The store behind the cache.
    package let store: NotificationSettingsStore
    /// The store's changes, each passed on once the cache has forgotten what it changed (the app, or `nil` for the
    /// settings of every app), so that whoever follows them reads the new settings.
    package let changes: AsyncStream<String?>
    private let state = Shared()
    private let sink: AsyncStream<String?>.Continuation

    /// The state, in a box shared with the readers of the cache.
    private final class Shared: Sendable {
        let lock = Mutex(State())

        func withLock<T>(_ body: (inout State) -> T) -> T { lock.withLock { body(&$0) } }
    }

    private struct State {
        var records: [String: AppSettingsRecord] = [:]
        var noted: Set<String> = []
        /// Counts the changes reported, so that a record read across a change is not kept.
        var generation = 0
    }

    /// Keeps `store`'s settings once read: read ``changes`` instead of the store's
    /// ``NotificationSettingsStore/changes``, which has no other reader. Changes are followed while ``run()`` runs.
    package init(_ store: NotificationSettingsStore) {
        self.store = store
        (changes, sink) = AsyncStream<String?>.makeStream()
    }

    /// Follows the store's changes: forgets what each changed, then passes it on to ``changes``. Returns when the
    /// store is closed (``close()``) or the task is cancelled, and ends ``changes`` then. Run it once.
    package func run() async {
        for await app in store.changes {
            state.withLock { state in
                state.generation += 1
                // A global change (do-not-disturb) is in every app's record; so is a change of which apps are
                // listed, which an edit of the file by hand may be.
                if let app { state.records[app] = nil } else { state.records.removeAll() }
                if app == nil { state.noted.removeAll() }
            }
            sink.yield(app)
        }
        sink.finish()
    }

    /// Forgets what is kept of `app`'s settings (`nil`: every app's), for a change made through this process: the
    /// next read sees it without waiting for the store's report of it.
    package func forget(_ app: String?) {
        state.withLock { state in
            state.generation += 1
            if let app { state.records[app] = nil } else { state.records.removeAll() }
        }
    }

    /// The settings of `app`, listing it among the apps that posted the first time. It runs on the caller's actor:
    /// settings kept already are answered without a hop off it; only a first read waits for the store.
    package nonisolated(nonsending) func record(for app: String) async -> AppSettingsRecord {
        let (cached, generation, noted) = state.withLock { state in
            (state.records[app], state.generation, state.noted.insert(app).inserted)
        }
        if noted { await store.note(app) }
        if let cached { return cached }
        let record = await store.record(for: app)
        state.withLock { state in
            if state.generation == generation { state.records[app] = record }
        }
        return record
    }

    /// The settings of `app` as kept, without waiting for the store: `nil` when they are not kept (never read, or
    /// changed since). ``record(for:)`` reads and keeps them.
    package func cachedRecord(for app: String) -> AppSettingsRecord? {
        state.withLock { $0.records[app] }
    }

    /// Closes the store, which ends ``run()``.
    package func close() async {
        await store.close()
    }
}
