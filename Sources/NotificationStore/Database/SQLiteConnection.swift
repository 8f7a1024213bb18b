internal import CSQLite

/// One open SQLite database: owns the connection and closes it when released or ``close()``d.
///
/// Not thread-safe by itself (opened with `SQLITE_OPEN_NOMUTEX`): its owner serializes every use of it and of its
/// statements, as ``NotificationStore`` does with a lock.
package final class SQLiteConnection {
    private var handle: OpaquePointer?
    /// The database file.
    package let path: String
    /// `BEGIN IMMEDIATE` and `COMMIT`, prepared at their first use and kept until the connection closes: every
    /// transaction runs both, and parsing them anew each time was a good part of a small one.
    private var keptStatements: [String: OpaquePointer] = [:]

    /// Opens (and creates, if needed) the database at `path`.
    ///
    /// A symbolic link is not followed (`SQLITE_OPEN_NOFOLLOW`). Opening reads nothing: a file that is not a
    /// database shows it at the first statement, with ``SQLiteResultCode/notADatabase``.
    ///
    /// - Throws: ``SQLiteFailure`` when the file cannot be opened or created.
    package init(path: String) throws(SQLiteFailure) {
        self.path = path
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            let errno = handle.map { sqlite3_system_errno($0) } ?? 0
            sqlite3_close_v2(handle)
            throw SQLiteFailure(
                code: SQLiteResultCode(rawValue: code), message: message, systemErrno: errno,
                operation: "opening \(path)")
        }
        self.handle = handle
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit {
        close()
    }

    /// Closes the connection; statements still alive keep it until they are released. Later calls fail.
    package func close() {
        for statement in keptStatements.values { sqlite3_finalize(statement) }
        keptStatements = [:]
        sqlite3_close_v2(handle)
        handle = nil
    }

    /// Runs one or more statements that take no parameters (schema, pragmas, `BEGIN`), discarding their rows.
    package func execute(_ sql: String) throws(SQLiteFailure) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw failure(code, "running \(sql)") }
    }

    /// Runs a statement that takes no parameters and returns no rows, prepared the first time and kept.
    private func runKept(_ sql: String) throws(SQLiteFailure) {
        let statement: OpaquePointer
        if let kept = keptStatements[sql] {
            statement = kept
        } else {
            var prepared: OpaquePointer?
            let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
            guard code == SQLITE_OK, let prepared else { throw failure(code, "preparing \(sql)") }
            keptStatements[sql] = prepared
            statement = prepared
        }
        let code = sqlite3_step(statement)
        // The failure is read before the reset, which would report it again but may change the message.
        let failed = code == SQLITE_DONE ? nil : failure(code, "running \(sql)")
        sqlite3_reset(statement)
        if let failed { throw failed }
    }

    /// Prepares a statement to run any number of times.
    package func prepare(_ sql: String) throws(SQLiteFailure) -> SQLiteStatement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else { throw failure(code, "preparing \(sql)") }
        return SQLiteStatement(connection: self, handle: statement, sql: sql)
    }

    /// The first column of the first row of a query that takes no parameters, as an integer; `nil` without a row.
    package func integer(_ sql: String) throws(SQLiteFailure) -> Int64? {
        let statement = try prepare(sql)
        return try statement.step() ? statement.integer(at: 0) : nil
    }

    /// Whether a transaction is open (after a failed statement SQLite may have rolled it back itself).
    package var isInTransaction: Bool {
        handle.map { sqlite3_get_autocommit($0) == 0 } ?? false
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it or the commit throws.
    package func transaction<Result>(
        _ body: () throws(SQLiteFailure) -> Result
    ) throws(SQLiteFailure) -> Result {
        try runKept("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try runKept("COMMIT")
            return result
        } catch {
            if isInTransaction { try? execute("ROLLBACK") }
            throw error
        }
    }

    /// The failure for `code`, with the connection's message and errno.
    func failure(_ code: Int32, _ operation: String) -> SQLiteFailure {
        // The extended code says more (SQLITE_IOERR_WRITE), when it belongs to this failure.
        let extended = handle.map { sqlite3_extended_errcode($0) } ?? code
        return SQLiteFailure(
            code: SQLiteResultCode(rawValue: extended & 0xFF == code & 0xFF ? extended : code),
            message: handle.map { String(cString: sqlite3_errmsg($0)) } ?? "the database is closed",
            systemErrno: handle.map { sqlite3_system_errno($0) } ?? 0,
            operation: operation)
    }
}
