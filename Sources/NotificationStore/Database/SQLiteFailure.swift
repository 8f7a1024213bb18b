internal import CSQLite
import Glibc

/// A result code of SQLite (`SQLITE_*`), primary or extended.
package struct SQLiteResultCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The C value.
    package var rawValue: Int32

    /// Wraps a C value.
    package init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The primary code of an extended one (`SQLITE_IOERR_WRITE` gives `SQLITE_IOERR`).
    package var primary: SQLiteResultCode { SQLiteResultCode(rawValue: rawValue & 0xFF) }

    /// `SQLITE_BUSY`: another connection holds a lock.
    package static var busy: SQLiteResultCode { SQLiteResultCode(rawValue: SQLITE_BUSY) }
    /// `SQLITE_READONLY`: the file or its directory cannot be written.
    package static var readOnly: SQLiteResultCode { SQLiteResultCode(rawValue: SQLITE_READONLY) }
    /// `SQLITE_IOERR`: the operating system reported an I/O error.
    package static var ioError: SQLiteResultCode { SQLiteResultCode(rawValue: SQLITE_IOERR) }
    /// `SQLITE_CORRUPT`: the file is damaged.
    package static var corrupt: SQLiteResultCode { SQLiteResultCode(rawValue: SQLITE_CORRUPT) }
    /// `SQLITE_FULL`: the disk is full.
    package static var full: SQLiteResultCode { SQLiteResultCode(rawValue: SQLITE_FULL) }
    /// `SQLITE_CANTOPEN`: the file could not be opened.
    package static var cannotOpen: SQLiteResultCode { SQLiteResultCode(rawValue: SQLITE_CANTOPEN) }
    /// `SQLITE_NOTADB`: the file is not an SQLite database.
    package static var notADatabase: SQLiteResultCode { SQLiteResultCode(rawValue: SQLITE_NOTADB) }

    /// Whether the code says the file's contents cannot be trusted (`SQLITE_CORRUPT`, `SQLITE_NOTADB`).
    package var meansDamagedFile: Bool { primary == .corrupt || primary == .notADatabase }

    /// SQLite's English name for the code (`disk I/O error`), with the number.
    package var description: String {
        "\(String(cString: sqlite3_errstr(rawValue))) (SQLite code \(rawValue))"
    }
}

/// A call to SQLite that failed: its result code, what SQLite said, and what the caller was doing.
package struct SQLiteFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The extended result code.
    package var code: SQLiteResultCode
    /// SQLite's message (`sqlite3_errmsg`), which names the table or the statement where it can.
    package var message: String
    /// The operating system's error number behind an I/O failure (`sqlite3_system_errno`), else 0.
    package var systemErrno: Int32
    /// What was being done: "opening /path/state.db", "saving a change".
    package var operation: String

    /// Makes a failure.
    package init(code: SQLiteResultCode, message: String, systemErrno: Int32 = 0, operation: String) {
        self.code = code
        self.message = message
        self.systemErrno = systemErrno
        self.operation = operation
    }

    /// Whether the disk is full: SQLite said so, or the system call behind an I/O error failed with `ENOSPC` (as
    /// growing the log's shared-memory index does).
    package var meansNoSpace: Bool { code.primary == .full || systemErrno == ENOSPC }

    /// What went wrong and what to do about it.
    package var description: String {
        "\(operation) failed: \(message), \(code)\(systemErrno != 0 ? ", errno \(systemErrno)" : ""); \(advice)"
    }

    /// What a user can do about the code.
    private var advice: String {
        switch code.primary {
        case .full: "free some disk space"
        case .readOnly, .cannotOpen: "make the folder and its files writable by you"
        case .ioError: "check the disk (dmesg shows its errors) and free some space"
        case .corrupt, .notADatabase: "the file is damaged; it is moved aside at the next start"
        case .busy: "another process uses the file; stop it"
        default: "try again; if it keeps failing, move the file away and start again"
        }
    }
}
