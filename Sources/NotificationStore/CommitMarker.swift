import Glibc

/// A small file beside the database, `state.commits`, that says how many transactions the store had committed when it
/// last acknowledged one: what a restart must find again.
///
/// The database counts its transactions too, inside each one (see `StoreDatabase.committedCount()`); a database
/// that comes back with a lower count than this file lost acknowledged changes: an emptied file, a write-ahead log
/// deleted or damaged after the process was killed. SQLite cannot tell, since it takes a missing log for one that was
/// checkpointed and stops reading a log at its first bad frame.
///
/// The count is written after each transaction commits, without a sync: like the log with `synchronous=NORMAL`, it is
/// in the kernel's page cache before the change is acknowledged, so it survives the process being killed. Being
/// written after the commit, it is never ahead of what was committed. Text, one line of 20 digits, so that a person
/// can read it.
///
/// Not thread-safe: the store uses it under its lock.
final class CommitMarker {
    /// The name of the file in the state directory.
    static let fileName = "state.commits"

    private var descriptor: Int32

    /// Opens (creating it, mode 0600) the marker at `path`.
    ///
    /// - Throws: The errno of `open` (a symbolic link is refused with `ELOOP`).
    init(path: String) throws(DurableFile.Failure) {
        let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw DurableFile.Failure(code: errno) }
        self.descriptor = descriptor
    }

    deinit {
        close()
    }

    /// The count the marker at `path` holds; `nil` when there is no marker or it cannot be read as one (then nothing
    /// can be compared).
    static func read(_ path: String) -> Int64? {
        guard DurableFile.oddKind(at: path) == nil, let bytes = try? DurableFile.read(path),
            let text = String(validating: bytes, as: UTF8.self)
        else { return nil }
        return Int64(text.trimmingTrailingNewlines)
    }

    /// Records `count`; a failure (a full disk) is ignored: the marker then lags, which never reports a loss that did
    /// not happen.
    func record(_ count: Int64) {
        guard descriptor >= 0 else { return }
        let digits = String(count)
        let line = Array((String(repeating: "0", count: max(0, 20 - digits.count)) + digits + "\n").utf8)
        _ = line.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }

    /// Closes the file; later records do nothing.
    func close() {
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = -1
    }
}

extension String {
    fileprivate var trimmingTrailingNewlines: Substring {
        var text = Substring(self)
        while text.last == "\n" { text = text.dropLast() }
        return text
    }
}
