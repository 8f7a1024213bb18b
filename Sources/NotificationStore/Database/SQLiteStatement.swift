internal import CSQLite

/// A prepared statement of an ``SQLiteConnection``: bind values, step through rows, reset, and again.
///
/// It belongs to its connection and is used on the same thread as it; it finalizes itself when released.
package final class SQLiteStatement {
    /// The connection, kept alive for as long as the statement: SQLite needs it open to finalize.
    private let connection: SQLiteConnection
    private let handle: OpaquePointer
    /// The text of the statement, for error messages.
    let sql: String

    init(connection: SQLiteConnection, handle: OpaquePointer, sql: String) {
        self.connection = connection
        self.handle = handle
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Binds `value` to the parameter at `index` (from 1); `nil` binds NULL.
    package func bind(_ value: String?, at index: Int32) throws(SQLiteFailure) {
        let code: Int32 =
            if let value { sqlite3_bind_text(handle, index, value, -1, notificationbridge_sqlite_transient()) } else {
                sqlite3_bind_null(handle, index)
            }
        try check(code, "binding parameter \(index)")
    }

    /// Binds `bytes` as a blob to the parameter at `index` (from 1).
    package func bind(_ bytes: [UInt8], at index: Int32) throws(SQLiteFailure) {
        let code = bytes.withUnsafeBytes {
            sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), notificationbridge_sqlite_transient())
        }
        try check(code, "binding parameter \(index)")
    }

    /// Binds a number to the parameter at `index` (from 1); `nil` binds NULL.
    package func bind(_ value: Double?, at index: Int32) throws(SQLiteFailure) {
        let code = value.map { sqlite3_bind_double(handle, index, $0) } ?? sqlite3_bind_null(handle, index)
        try check(code, "binding parameter \(index)")
    }

    /// Binds an integer to the parameter at `index` (from 1).
    package func bind(_ value: Int64, at index: Int32) throws(SQLiteFailure) {
        try check(sqlite3_bind_int64(handle, index, value), "binding parameter \(index)")
    }

    /// Runs the statement to its next row.
    ///
    /// - Returns: `true` when a row is ready to read, `false` when the statement is done.
    package func step() throws(SQLiteFailure) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.failure(code, "running \(sql)")
        }
    }

    /// Runs a statement that returns no rows, then resets it for the next use.
    package func run() throws(SQLiteFailure) {
        defer { reset() }
        while try step() {}
    }

    /// Makes the statement ready to run again, with its bindings cleared.
    package func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// The text in the column at `index` (from 0) of the current row; `nil` for NULL.
    package func text(at index: Int32) -> String? {
        guard let text = sqlite3_column_text(handle, index) else { return nil }
        return String(cString: text)
    }

    /// The bytes in the column at `index` (from 0) of the current row; empty for NULL.
    package func blob(at index: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, index))
        guard count > 0, let bytes = sqlite3_column_blob(handle, index) else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    /// The integer in the column at `index` (from 0) of the current row; 0 for NULL.
    package func integer(at index: Int32) -> Int64 {
        sqlite3_column_int64(handle, index)
    }

    /// The number in the column at `index` (from 0) of the current row; `nil` for NULL.
    package func double(at index: Int32) -> Double? {
        sqlite3_column_type(handle, index) == SQLITE_NULL ? nil : sqlite3_column_double(handle, index)
    }

    private func check(_ code: Int32, _ operation: String) throws(SQLiteFailure) {
        guard code == SQLITE_OK else { throw connection.failure(code, "\(operation) of \(sql)") }
    }
}
