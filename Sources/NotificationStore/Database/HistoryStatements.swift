/// The `history` table of ``StoreDatabase``: one row per notification that ended, keyed by its id, with the time it
/// ended (indexed, for the bound by age and the newest-first order) and its value in `body`.
///
/// The table came with schema version 3; a file of version 2 gets it when it is first opened for writing
/// (``StoreDatabase/prepareForWriting()``).
struct HistoryStatements {
    /// The table and its index, for a new file and for the step from version 2.
    static let schema = """
        CREATE TABLE IF NOT EXISTS history (id TEXT PRIMARY KEY NOT NULL, ended_at REAL NOT NULL, body BLOB NOT NULL);
        CREATE INDEX IF NOT EXISTS history_by_ended_at ON history (ended_at);
        """

    private let put: SQLiteStatement
    private let delete: SQLiteStatement
    private let pruneByAge: SQLiteStatement
    private let pruneByCount: SQLiteStatement
    private let body: SQLiteStatement
    private let all: SQLiteStatement

    /// Prepares the statements; fails when the table is missing.
    init(_ connection: SQLiteConnection) throws(SQLiteFailure) {
        put = try connection.prepare("INSERT OR REPLACE INTO history (id, ended_at, body) VALUES (?1, ?2, ?3)")
        delete = try connection.prepare("DELETE FROM history WHERE id = ?1")
        pruneByAge = try connection.prepare("DELETE FROM history WHERE ended_at < ?1")
        // The newest are kept; of rows that ended at the same moment, the last written.
        pruneByCount = try connection.prepare(
            "DELETE FROM history WHERE rowid NOT IN "
                + "(SELECT rowid FROM history ORDER BY ended_at DESC, rowid DESC LIMIT ?1)")
        body = try connection.prepare("SELECT body FROM history WHERE id = ?1")
        all = try connection.prepare("SELECT id, body FROM history ORDER BY ended_at DESC, rowid DESC")
    }

    /// Adds or replaces the row of `id`.
    func put(id: String, endedAt: Double, body: [UInt8]) throws(SQLiteFailure) {
        try put.bind(id, at: 1)
        try put.bind(endedAt, at: 2)
        try put.bind(body, at: 3)
        try put.run()
    }

    /// Removes the row of `id`, if there is one.
    func delete(id: String) throws(SQLiteFailure) {
        try delete.bind(id, at: 1)
        try delete.run()
    }

    /// Removes the rows that ended before `cutoff`, then all but the `limit` newest.
    func prune(endedBefore cutoff: Double, keeping limit: Int) throws(SQLiteFailure) {
        try pruneByAge.bind(cutoff, at: 1)
        try pruneByAge.run()
        try pruneByCount.bind(Int64(max(0, limit)), at: 1)
        try pruneByCount.run()
    }

    /// The body of the row of `id`; `nil` when there is none.
    func body(id: String) throws(SQLiteFailure) -> [UInt8]? {
        defer { body.reset() }
        try body.bind(id, at: 1)
        return try body.step() ? body.blob(at: 0) : nil
    }

    /// Every row, newest first.
    func rows() throws(SQLiteFailure) -> [(id: String, body: [UInt8])] {
        defer { all.reset() }
        var rows: [(id: String, body: [UInt8])] = []
        while try all.step() { rows.append((all.text(at: 0) ?? "", all.blob(at: 1))) }
        return rows
    }
}
