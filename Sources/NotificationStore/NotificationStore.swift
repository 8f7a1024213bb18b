import FoundationEssentials
import Glibc
import NotificationScheduling
import Synchronization

/// The daemon's durable state: scheduled notifications, categories and the routes of delivered notifications,
/// kept in a private directory so that they survive a restart or a `kill -9` at any moment.
///
/// One SQLite file, `state.db` (mode 0600, in a directory of mode 0700), with one row per scheduled notification,
/// category and route (see `StoreDatabase`). A change writes its rows in one transaction: nothing is ever rewritten
/// whole, and `apply(_:)` returns once the transaction is in the write-ahead log, so a crash of
/// the process at any moment keeps it. A power cut may lose the last changes, never the file's consistency.
///
/// Beside it, `state.commits` (see `CommitMarker`) counts the changes acknowledged: a database that comes back with
/// fewer (emptied, its write-ahead log deleted or damaged after a crash) is reported in ``lostCommits``. The file is
/// in incremental-vacuum mode, so that after a large deletion ``reclaimSpace()`` gives its free pages back to the file
/// system instead of keeping the file at its largest.
///
/// Nothing is ever silently emptied: a file that is not a database, is damaged, or holds a row that cannot be read, is
/// renamed to `state.db.corrupt-<UTC time>` (with its log beside it) and listed in ``movedAside``, whose descriptions
/// name the new path; the store then starts empty. A file that cannot be opened at all (permissions, I/O) makes the
/// initializer throw, and is left where it is.
///
/// The methods block on disk I/O: call them from one thread that owns the writing. They are serialized by a lock.
package final class NotificationStore<Payload, Category, Route>: Sendable
where Payload: Codable & Sendable, Category: Codable & Sendable, Route: Codable & Sendable {
    /// The stored state.
    package typealias State = StoredNotifications<Payload, Category, Route>
    /// One change to the state.
    package typealias Change = StoreChange<Payload, Category, Route>

    /// The name of the database file.
    package static var databaseName: String { "state.db" }

    /// The directory holding the files.
    package let directory: String
    /// The path of the database, `<directory>/state.db`.
    package let databasePath: String

    /// The files that could not be read when the store opened, and where they were moved; normally empty.
    ///
    /// Show each ``CorruptStateFile/description`` to the user (log it at error level): it names the moved file.
    package let movedAside: [CorruptStateFile]

    /// Whether the database came back with fewer changes than the last run acknowledged (emptied, its write-ahead
    /// log lost or damaged), and what was found; normally `nil`. Show its ``LostCommits/description`` to the user (log
    /// it at error level): it says what is lost and where the files were copied.
    package let lostCommits: LostCommits?

    /// Whether the disk holding the database was full when the store opened: what was saved is read, and each write
    /// fails with ``NotificationStoreError/cannotSave(path:failure:)`` until there is space again. Tell the user (log
    /// it at warning level).
    package let openedOnFullDisk: Bool

    struct Inner: @unchecked Sendable {
        // Unchecked: the database is only ever used under the store's lock.
        /// `nil` once closed.
        var database: StoreDatabase?
        /// The state read when the store opened, until ``takeOpenedState()`` hands it over.
        var opened: State?
        /// Makes every write fail as an I/O error would; for tests.
        var failsWrites = false
        /// The transactions the database holds; recorded in ``marker`` after each one.
        var committed: Int64 = 0
        var marker: CommitMarker?
        /// Whether a change deleted rows since space was last given back (``reclaimSpace()``).
        var hasFreedRows = false
    }

    let inner: Mutex<Inner>

    /// Opens the store in `directory`, creating the directory (mode 0700) and the database if needed, and reads the
    /// state (see ``takeOpenedState()``).
    ///
    /// A database that cannot be read as state is moved aside (see ``movedAside``).
    ///
    /// - Parameters:
    ///   - directory: Usually ``defaultDirectory(environment:)``.
    ///   - now: The time used to name files moved aside.
    /// - Throws: ``NotificationStoreError`` when the directory cannot be created, a file exists but cannot be opened,
    ///   or a file cannot be moved aside.
    package init(directory: String, now: Date = Date()) throws(NotificationStoreError) {
        let base = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        self.directory = directory
        databasePath = base + "/" + Self.databaseName
        let opened = try Self.open(directory: directory, databasePath: databasePath, now: now)
        movedAside = opened.movedAside
        openedOnFullDisk = opened.onFullDisk
        lostCommits = opened.lostCommits
        let marker = try? CommitMarker(path: Self.markerPath(databasePath))
        // From now on the marker says what this file holds: a loss is reported once.
        marker?.record(opened.committed)
        inner = Mutex(
            Inner(database: opened.database, opened: opened.state, committed: opened.committed, marker: marker))
    }

    /// Hands over the state read when the store opened, once: later calls return an empty state. The store keeps no
    /// copy of its rows in memory.
    package func takeOpenedState() -> State {
        inner.withLock { inner in
            defer { inner.opened = nil }
            return inner.opened ?? State()
        }
    }

    /// Reads the whole state from the database.
    ///
    /// - Throws: ``NotificationStoreError/closed(directory:)`` after ``close()``,
    ///   ``NotificationStoreError/cannotRead(path:failure:)`` when a row or the file cannot be read.
    package func readState() throws(NotificationStoreError) -> State {
        try reading { database throws in try Self.decodeState(of: database) }
    }

    /// Records one change durably.
    ///
    /// - Throws: As `apply(_:)`.
    package func apply(_ change: Change) throws(NotificationStoreError) {
        try apply([change])
    }

    /// Records several changes durably, in one transaction: all of them or none.
    ///
    /// - Parameter changes: The changes, in order.
    /// - Throws: ``NotificationStoreError/cannotSave(path:failure:)`` (a full disk, an I/O error),
    ///   ``NotificationStoreError/cannotEncode(reason:)`` or ``NotificationStoreError/closed(directory:)``; none of
    ///   the changes is recorded then.
    package func apply(_ changes: [Change]) throws(NotificationStoreError) {
        guard !changes.isEmpty else { return }
        let rows = try StoreRow.encode(changes)
        try inner.withLock { inner throws(NotificationStoreError) in
            guard let database = inner.database else { throw .closed(directory: directory) }
            let failsWrites = inner.failsWrites
            do throws(SQLiteFailure) {
                let counted = try database.connection.transaction { () throws(SQLiteFailure) -> Bool in
                    for row in rows { try row.write(to: database) }
                    if failsWrites {
                        throw SQLiteFailure(
                            code: .ioError, message: "disk I/O error", systemErrno: EIO, operation: "saving a change")
                    }
                    return try database.countCommitInTransaction()
                }
                if counted {
                    inner.committed += 1
                    inner.marker?.record(inner.committed)
                }
            } catch {
                throw .cannotSave(path: databasePath, failure: error)
            }
            // A closure, not a key path, as in every generic path of a write (see StoreWriter.writeQueued()).
            if changes.contains(where: { $0.deletesRow }) { inner.hasFreedRows = true }
        }
    }

    /// Gives the space of deleted rows back to the file system when there is much of it (a large withdrawal): the file
    /// shrinks instead of staying at its largest. Call it after a change, off any path that waits for an answer; it
    /// does nothing unless a change deleted rows since.
    ///
    /// - Returns: Whether space was given back: a large deletion happened, after which the caller may give memory back
    ///   too.
    @discardableResult
    package func reclaimSpace() -> Bool {
        inner.withLock { inner in
            guard inner.hasFreedRows, let database = inner.database else { return false }
            inner.hasFreedRows = false
            // A failure (a full disk) leaves the free pages to SQLite, which reuses them.
            return (try? database.reclaimFreePages()) ?? false
        }
    }

    /// Closes the database: later calls fail with ``NotificationStoreError/closed(directory:)``. SQLite folds its log
    /// into the file as it closes, so that the next process to open it starts from one file.
    package func close() {
        inner.withLock { inner in
            inner.database?.close()
            inner.database = nil
            inner.marker?.close()
            inner.marker = nil
        }
    }

    /// Makes the following writes fail as an I/O error would (`false`: write normally); for tests.
    func injectWriteFailure(_ fails: Bool) {
        inner.withLock { $0.failsWrites = fails }
    }

    /// Every row of the database, decoded.
    ///
    /// - Throws: ``StoreDatabase/Unreadable`` for a damaged file or a row that cannot be decoded, ``SQLiteFailure``
    ///   for an I/O error.
    static func decodeState(of database: StoreDatabase) throws -> State {
        var state = State()
        let pending = try decodeRows(ScheduledNotification<Payload>.self, of: database, .pending)
        state.pending.reserveCapacity(pending.count)
        for (_, notification) in pending { state.pending[notification.id] = notification }
        state.categories = Dictionary(try decodeRows(Category.self, of: database, .categories)) { _, last in last }
        state.delivered = Dictionary(try decodeRows(Route.self, of: database, .delivered)) { _, last in last }
        return state
    }

    /// The rows of `table`, decoded in their order; thousands of them on a few threads at once.
    ///
    /// - Throws: ``StoreDatabase/Unreadable`` naming the first row that cannot be decoded.
    private static func decodeRows<Value: Decodable & Sendable>(
        _ type: Value.Type, of database: StoreDatabase, _ table: StoreDatabase.Table
    ) throws -> [(String, Value)] {
        let chunks = ChunkedWork.map(try database.rows(of: table), minimumPerThread: 2_000) { rows in
            let decoder = RowDecoder()
            var decoded: [(String, Value)] = []
            decoded.reserveCapacity(rows.count)
            for row in rows {
                do {
                    decoded.append((row.id, try decodeRow(Value.self, from: row.body, with: decoder)))
                } catch {
                    return Result<[(String, Value)], StoreDatabase.Unreadable>.failure(
                        StoreDatabase.Unreadable(
                            reason: "the row '\(row.id)' of the table \(table.rawValue): \(describe(error))"))
                }
            }
            return .success(decoded)
        }
        guard chunks.count > 1 else { return try chunks[0].get() }
        var all: [(String, Value)] = []
        for chunk in chunks { all += try chunk.get() }
        return all
    }
}
