/// The `focus` table of ``StoreDatabase``: the owner's focus modes and what the user said of them by hand, one row
/// per key, its value in `body`.
///
/// Made with `IF NOT EXISTS` in a new file and in one opened for writing (``StoreDatabase/prepareForWriting()``), as
/// the counters are: an older version, which reads only the tables it knows, still reads a file that has it.
struct FocusStatements {
    /// The table, for a new file and for a file made before it.
    static let schema = """
        CREATE TABLE IF NOT EXISTS focus (id TEXT PRIMARY KEY NOT NULL, body BLOB NOT NULL);
        """

    private let put: SQLiteStatement
    private let body: SQLiteStatement

    /// Prepares the statements; fails when the table is missing.
    init(_ connection: SQLiteConnection) throws(SQLiteFailure) {
        put = try connection.prepare("INSERT OR REPLACE INTO focus (id, body) VALUES (?1, ?2)")
        body = try connection.prepare("SELECT body FROM focus WHERE id = ?1")
    }

    /// Adds or replaces the row of `id`.
    func put(id: String, body: [UInt8]) throws(SQLiteFailure) {
        try put.bind(id, at: 1)
        try put.bind(body, at: 2)
        try put.run()
    }

    /// The body of the row of `id`; `nil` when there is none.
    func body(id: String) throws(SQLiteFailure) -> [UInt8]? {
        defer { body.reset() }
        try body.bind(id, at: 1)
        return try body.step() ? body.blob(at: 0) : nil
    }
}
