import Glibc

/// Why the notification store could not read or write its state. Each message names the file and what to do.
package enum NotificationStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The state directory could not be created or made private.
    case cannotCreateDirectory(path: String, errno: Int32)
    /// A state file of an older version exists but could not be read (permissions, I/O error). The file is left
    /// where it is.
    case cannotReadFile(path: String, errno: Int32)
    /// A file beside the state (the directory's lock) could not be written.
    case cannotWrite(path: String, errno: Int32)
    /// The state database could not be opened or read (permissions, I/O error). The file is left where it is.
    case cannotRead(path: String, failure: SQLiteFailure)
    /// A change could not be saved in the state database (a full disk, an I/O error). The previous state is
    /// unchanged, on disk and for the caller.
    case cannotSave(path: String, failure: SQLiteFailure)
    /// The state file could not be read as state, and moving it aside failed too. Nothing was changed.
    case cannotMoveAside(path: String, destination: String, errno: Int32, reason: String)
    /// The state directory, or a file of the state, is a symbolic link or not a regular file: it is not read, not
    /// followed and not written. `kind` says what it is ("a symbolic link", "a FIFO", …).
    case notRegular(path: String, kind: String, isDirectory: Bool)
    /// Another process holds the lock of the state directory and did not let it go in time.
    case locked(directory: String, holder: Int32?, waited: Duration)
    /// The store was closed (its owner stops, or handed the directory over); nothing more is written.
    case closed(directory: String)
    /// The state could not be encoded (a payload that throws from `encode(to:)`).
    case cannotEncode(reason: String)

    /// What went wrong, with which file, and what to do.
    package var description: String {
        switch self {
        case .cannotCreateDirectory(let path, let code):
            "cannot create the state directory \(path): \(errorText(code)); make its parent writable by you, "
                + "or set XDG_STATE_HOME to a directory you own"
        case .cannotReadFile(let path, let code):
            "cannot read the state file \(path): \(errorText(code)); it must be a regular file owned by you "
                + "(mode 0600), fix its owner or permissions"
        case .cannotWrite(let path, let code):
            "cannot write the state file \(path): \(errorText(code)); the previous state is unchanged. "
                + "Free disk space, or make the directory writable by you"
        case .cannotRead(let path, let failure):
            "cannot read the state database \(path): \(failure); it must be a regular file owned by you (mode 0600) "
                + "in a directory you can write"
        case .cannotSave(let path, let failure):
            "cannot save the change in the state database \(path), the previous state is unchanged: \(failure)"
        case .cannotMoveAside(let path, let destination, let code, let reason):
            "the state file \(path) cannot be read (\(reason)) and could not be moved to \(destination): "
                + "\(errorText(code)); move or delete it yourself, then start again"
        case .notRegular(let path, let kind, true):
            "the state directory \(path) is \(kind); the bridge keeps its state only in a real directory, so that it "
                + "cannot be redirected: replace the link by a directory (move the files it points to into it), or set "
                + "XDG_STATE_HOME to a directory you own"
        case .notRegular(let path, let kind, false):
            "the state file \(path) is \(kind), not a regular file; the bridge neither follows nor reads it: remove it "
                + "or move it away (for example to \(path).old), then start again"
        case .locked(let directory, let holder, let waited):
            "the state directory \(directory) is in use by "
                + (holder.map { "another notification-bridged (process \($0))" } ?? "another notification-bridged")
                + ", which did not let it go within \(waited.components.seconds) s (another session bus with the same "
                + "XDG_STATE_HOME?); stop it, or give each session its own XDG_STATE_HOME"
        case .closed(let directory):
            "the state in \(directory) is closed: notification-bridged is stopping or has handed over to another; "
                + "call again in a moment"
        case .cannotEncode(let reason):
            "the state could not be encoded (\(reason)); the previous state is unchanged"
        }
    }
}

extension NotificationStoreError {
    /// The error for a path that is a symbolic link or not a regular file (or directory), else `nil`.
    static func refusal(_ path: String, _ failure: DurableFile.Failure, isDirectory: Bool) -> NotificationStoreError? {
        guard failure.code == ELOOP || failure.code == EINVAL || failure.code == ENOTDIR,
            let kind = DurableFile.oddKind(at: path) ?? (failure.code == ENOTDIR ? "not a directory" : nil)
        else { return nil }
        return .notRegular(path: path, kind: kind, isDirectory: isDirectory)
    }
}

/// The C library's text for an errno value, with the value.
func errorText(_ code: Int32) -> String {
    "\(String(cString: strerror(code))) (errno \(code))"
}
