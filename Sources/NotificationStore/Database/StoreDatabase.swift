import Glibc

/// The tables of the daemon's state in one SQLite file, and the statements that read and change them.
///
/// One row per scheduled notification, category, route of a delivered notification and ended notification, each keyed by its id, its
/// value in `body` (the owner's `Codable` value in the form of ``RowFormat``, which carries its own version). The file is in WAL mode with `synchronous=NORMAL`: a committed change is in the write-ahead log (in the
/// kernel's page cache, at least) before the commit returns, so it survives the process being killed at any moment; a
/// power cut may lose the changes since the last checkpoint, never the file's consistency.
///
/// Not thread-safe: ``NotificationStore`` serializes every use.
final class StoreDatabase {
    /// The tables, one per kind of row.
    enum Table: String, CaseIterable {
        case pending
        case categories
        case delivered
    }

    /// Why an existing file cannot be read as the state: it is moved aside, never emptied.
    struct Unreadable: Error {
        var reason: String
    }

    /// `PRAGMA user_version` of the current schema: 3, which added the table of ended notifications
    /// (``HistoryStatements``) to version 2, whose rows hold their values in the form of ``RowFormat`` (version 1 held
    /// JSON rows, which are no longer read: such a file is moved aside). A file of version 2 is read, and given the
    /// table when it is first opened for writing.
    static let schemaVersion: Int64 = 3
    /// The oldest version read.
    static let oldestReadVersion: Int64 = 2
    /// `PRAGMA application_id`: "NBst", so that `file` and a reader can tell the file is ours.
    static let applicationID: Int64 = 0x4E42_7374

    /// The table of counters: `commits`, the transactions that changed the state (see ``committedCount()``). Older
    /// versions read only the three tables of ``Table``, so a file with it is still theirs.
    private static let counters = """
        CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY NOT NULL, value INTEGER NOT NULL);
        INSERT OR IGNORE INTO counters (name, value) VALUES ('commits', 0);
        """

    private static let schema = """
        CREATE TABLE pending (id TEXT PRIMARY KEY NOT NULL, scheduled_at REAL NOT NULL, body BLOB NOT NULL);
        CREATE INDEX pending_by_scheduled_at ON pending (scheduled_at);
        CREATE TABLE categories (id TEXT PRIMARY KEY NOT NULL, body BLOB NOT NULL);
        CREATE TABLE delivered (id TEXT PRIMARY KEY NOT NULL, body BLOB NOT NULL);
        \(HistoryStatements.schema)
        \(FocusStatements.schema)
        PRAGMA application_id = \(applicationID);
        PRAGMA user_version = \(schemaVersion);
        \(counters)
        """

    /// Free pages beyond which a change that deleted rows gives space back to the file system (1 MiB of pages).
    static let reclaimedFreePages: Int64 = 256

    let connection: SQLiteConnection
    private let putPending: SQLiteStatement
    private let puts: [Table: SQLiteStatement]
    private let deletes: [Table: SQLiteStatement]
    private let pendingBody: SQLiteStatement
    /// Counts a transaction in `counters`; `nil` while the table is missing (a file of an older version not yet
    /// written to, see ``prepareForWriting()``).
    private var countCommit: SQLiteStatement?
    /// The statements of the table of ended notifications; `nil` while the table is missing (a file of version 2 not
    /// yet written to, or one whose disk was too full to add it).
    private(set) var history: HistoryStatements?
    /// The statements of the table of focus modes; `nil` while the table is missing (a file made before it, not yet
    /// written to, or one whose disk was too full to add it).
    private(set) var focus: FocusStatements?

    /// Opens the file at `path`, creating the tables in a new one.
    ///
    /// - Parameters:
    ///   - path: The database file.
    ///   - indexInMemory: Whether the log's index is kept in this process's memory instead of the shared-memory file
    ///     beside the database (`state.db-shm`), which a full disk cannot grow: SQLite's exclusive locking mode, which
    ///     costs nothing here since only the daemon holding the state directory opens the file.
    /// - Throws: ``Unreadable`` for a file that is not a database, a damaged one, or one of another application or of
    ///   a newer schema; ``SQLiteFailure`` when it cannot be opened or written (permissions, I/O, a full disk).
    init(path: String, indexInMemory: Bool = false) throws {
        // SQLite takes a file shorter than its header for an empty database, and would write over it.
        if let problem = Self.headerProblem(at: path) { throw Unreadable(reason: problem) }
        let connection = try SQLiteConnection(path: path)
        self.connection = connection
        do {
            // Must come before the first read, which is when SQLite would map the index.
            if indexInMemory { try connection.execute("PRAGMA locking_mode = EXCLUSIVE") }
            // Read before anything is written: a file that is not ours is moved aside as it was.
            let version = try connection.integer("PRAGMA user_version") ?? 0
            let application = try connection.integer("PRAGMA application_id") ?? 0
            if version == 0 && application == 0 {
                let tables = try connection.integer("SELECT count(*) FROM sqlite_master") ?? 0
                guard tables == 0 else {
                    throw Unreadable(reason: "it is an SQLite database of another program (no application id)")
                }
                // Before the first table, which is when SQLite fixes it: pages freed by deletions can then be given
                // back (``reclaimFreePages()``).
                try connection.execute("PRAGMA auto_vacuum = INCREMENTAL")
                try connection.transaction { () throws(SQLiteFailure) in try connection.execute(Self.schema) }
            } else if application != Self.applicationID {
                throw Unreadable(reason: "it is an SQLite database of another program (application id \(application))")
            } else if !(Self.oldestReadVersion...Self.schemaVersion).contains(version) {
                throw Unreadable(
                    reason: "its schema version \(version) is not known to this version of notification-bridge, which "
                        + "reads versions \(Self.oldestReadVersion) to \(Self.schemaVersion); was it written by a "
                        + "newer one?")
            }
            // A page cache of 256 KiB, not SQLite's 2 MiB: start-up reads every row once, and a change touches a few
            // pages of each index, so the larger cache only kept the last rows read (2 MB of heap with 10,000 pending).
            // A log that grew in a burst is cut back to 1 MiB at the next checkpoint rather than kept at its peak.
            try connection.execute(
                "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -256; "
                    + "PRAGMA journal_size_limit = 1048576;")
            putPending = try connection.prepare(
                "INSERT OR REPLACE INTO pending (id, scheduled_at, body) VALUES (?1, ?2, ?3)")
            var puts: [Table: SQLiteStatement] = [:]
            var deletes: [Table: SQLiteStatement] = [:]
            for table in Table.allCases {
                puts[table] = try connection.prepare(
                    "INSERT OR REPLACE INTO \(table.rawValue) (id, body) VALUES (?1, ?2)")
                deletes[table] = try connection.prepare("DELETE FROM \(table.rawValue) WHERE id = ?1")
            }
            (self.puts, self.deletes) = (puts, deletes)
            pendingBody = try connection.prepare("SELECT body FROM pending WHERE id = ?1")
            countCommit = try? connection.prepare("UPDATE counters SET value = value + 1 WHERE name = 'commits'")
            history = try? HistoryStatements(connection)
            focus = try? FocusStatements(connection)
        } catch let failure as SQLiteFailure where failure.code.meansDamagedFile {
            connection.close()
            throw Unreadable(reason: "\(failure.message) (\(failure.code))")
        } catch {
            connection.close()
            throw error
        }
    }

    /// Why the file at `path` cannot be an SQLite database, judged by its first bytes; `nil` when it may be one, or is
    /// empty or missing.
    private static func headerProblem(at path: String) -> String? {
        let descriptor = Glibc.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { Glibc.close(descriptor) }
        var header = [UInt8](repeating: 0, count: 16)
        let count = header.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return Array(header.prefix(count)) == Array("SQLite format 3\0".utf8)
            ? nil : "it is not an SQLite database (it does not begin with \"SQLite format 3\")"
    }

    /// How many transactions have changed the state in this file, as the file says now: the count is written in each
    /// transaction (``countCommitInTransaction()``), so a transaction that a lost or damaged log took away is not
    /// counted. 0 for a file without the count (new, or of an older version).
    ///
    /// - Throws: ``Unreadable`` for a damaged file, ``SQLiteFailure`` for an I/O error.
    func committedCount() throws -> Int64 {
        do throws(SQLiteFailure) {
            let exists =
                try connection.integer(
                    "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'counters'") ?? 0
            guard exists > 0 else { return 0 }
            return try connection.integer("SELECT value FROM counters WHERE name = 'commits'") ?? 0
        } catch {
            guard error.code.meansDamagedFile else { throw error }
            throw Unreadable(reason: "\(error.message) (\(error.code))")
        }
    }

    /// Makes a file read as it was found ready for the writes of this version: adds the count of transactions, and
    /// turns on incremental vacuum once (a `VACUUM` rewrites the file, once) for a file made before it was on.
    ///
    /// Called once the file was read and compared with what the last run acknowledged, so that a file found short
    /// is copied aside as it was. A disk too full for it leaves the file as it is, to be done at a later start.
    func prepareForWriting() {
        // Idempotent, and in one transaction: a file that has the table has its row too (a transaction that changes
        // nothing writes nothing).
        _ = try? connection.transaction { () throws(SQLiteFailure) in try connection.execute(Self.counters) }
        if countCommit == nil {
            countCommit = try? connection.prepare("UPDATE counters SET value = value + 1 WHERE name = 'commits'")
        }
        // The step from version 2: the table of ended notifications, in the same transaction as the new version.
        if history == nil {
            _ = try? connection.transaction { () throws(SQLiteFailure) in
                try connection.execute(HistoryStatements.schema + "PRAGMA user_version = \(Self.schemaVersion);")
            }
            history = try? HistoryStatements(connection)
        }
        if focus == nil {
            _ = try? connection.transaction { () throws(SQLiteFailure) in
                try connection.execute(FocusStatements.schema)
            }
            focus = try? FocusStatements(connection)
        }
        // 0: none, 1: full, 2: incremental.
        if (try? connection.integer("PRAGMA auto_vacuum")) != 2 {
            try? connection.execute("PRAGMA auto_vacuum = INCREMENTAL; VACUUM;")
        }
    }

    /// Counts the transaction under way in `counters`.
    ///
    /// - Returns: Whether it was counted: not in a file that has no count.
    func countCommitInTransaction() throws(SQLiteFailure) -> Bool {
        guard let countCommit else { return false }
        try countCommit.run()
        return true
    }

    /// Gives the pages freed by deleted rows back to the file system when there are many of them (over
    /// ``reclaimedFreePages`` and a quarter of the file): the file shrinks at the checkpoint that follows, which runs
    /// at once, and the log is cut back to empty.
    ///
    /// - Returns: Whether space was given back.
    @discardableResult
    func reclaimFreePages() throws(SQLiteFailure) -> Bool {
        let free = try connection.integer("PRAGMA freelist_count") ?? 0
        let total = try connection.integer("PRAGMA page_count") ?? 0
        guard free >= Self.reclaimedFreePages, free * 4 >= total else { return false }
        try connection.execute("PRAGMA incremental_vacuum; PRAGMA wal_checkpoint(TRUNCATE);")
        return true
    }

    /// Runs `body` with the statements of the table of ended notifications, turning a damaged file's failure into
    /// ``Unreadable``; returns `nil` when the file has no such table yet.
    func withHistory<Answer>(_ body: (HistoryStatements) throws(SQLiteFailure) -> Answer) throws -> Answer? {
        guard let history else { return nil }
        do throws(SQLiteFailure) {
            return try body(history)
        } catch {
            guard error.code.meansDamagedFile else { throw error }
            throw Unreadable(reason: "\(error.message) (\(error.code))")
        }
    }

    /// Runs `body` with the statements of the table of focus modes, as ``withHistory(_:)``; returns `nil` when the file
    /// has no such table yet.
    func withFocus<Answer>(_ body: (FocusStatements) throws(SQLiteFailure) -> Answer) throws -> Answer? {
        guard let focus else { return nil }
        do throws(SQLiteFailure) {
            return try body(focus)
        } catch {
            guard error.code.meansDamagedFile else { throw error }
            throw Unreadable(reason: "\(error.message) (\(error.code))")
        }
    }

    /// Closes the file; SQLite checkpoints the log into it and removes the log when it is the last connection.
    func close() {
        connection.close()
    }

    /// Every row of `table`, in the order they were last written: the order the table keeps them in, read straight
    /// through (ordering pending ones by their time would read them through the index, and sort again those
    /// scheduled at the same time).
    ///
    /// - Throws: ``Unreadable`` for a damaged file, ``SQLiteFailure`` for an I/O error.
    func rows(of table: Table) throws -> [(id: String, body: [UInt8])] {
        var rows: [(id: String, body: [UInt8])] = []
        try forEachRow(of: table) { rows.append(($0, $1)) }
        return rows
    }

    /// Hands each row of `table` to `body` as it is read, in the order of ``rows(of:)``, without keeping them.
    ///
    /// - Throws: ``Unreadable`` for a damaged file, ``SQLiteFailure`` for an I/O error.
    func forEachRow(of table: Table, _ body: (_ id: String, _ body: [UInt8]) -> Void) throws {
        do throws(SQLiteFailure) {
            let query = try connection.prepare("SELECT id, body FROM \(table.rawValue) ORDER BY rowid")
            while try query.step() {
                body(query.text(at: 0) ?? "", query.blob(at: 1))
            }
        } catch {
            guard error.code.meansDamagedFile else { throw error }
            throw Unreadable(reason: "\(error.message) (\(error.code))")
        }
    }

    /// The body of the scheduled notification `id`; `nil` when there is none.
    ///
    /// - Throws: ``Unreadable`` for a damaged file, ``SQLiteFailure`` for an I/O error.
    func pendingBody(id: String) throws -> [UInt8]? {
        defer { pendingBody.reset() }
        do throws(SQLiteFailure) {
            try pendingBody.bind(id, at: 1)
            return try pendingBody.step() ? pendingBody.blob(at: 0) : nil
        } catch {
            guard error.code.meansDamagedFile else { throw error }
            throw Unreadable(reason: "\(error.message) (\(error.code))")
        }
    }

    /// Adds or replaces a scheduled notification's row.
    func putPending(id: String, scheduledAt: Double, body: [UInt8]) throws(SQLiteFailure) {
        try putPending.bind(id, at: 1)
        try putPending.bind(scheduledAt, at: 2)
        try putPending.bind(body, at: 3)
        try putPending.run()
    }

    /// Adds or replaces a row of `table`.
    func put(_ table: Table, id: String, body: [UInt8]) throws(SQLiteFailure) {
        let statement = puts[table]!
        try statement.bind(id, at: 1)
        try statement.bind(body, at: 2)
        try statement.run()
    }

    /// Removes a row of `table`, if there is one.
    func delete(_ table: Table, id: String) throws(SQLiteFailure) {
        let statement = deletes[table]!
        try statement.bind(id, at: 1)
        try statement.run()
    }
}
