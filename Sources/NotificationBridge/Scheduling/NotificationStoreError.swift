import Glibc

/// Why the notification store could not read or write its state. Each message names the file and what to do.
package enum NotificationStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The state directory could not be created or made private.
    case cannotCreateDirectory(path: String, errno: Int32)
    /// The state file exists but could not be read (permissions, I/O error). The file is left where it is.
    case cannotRead(path: String, errno: Int32)
    /// The new state could not be written, synced or put in place. The previous state file is unchanged.
    case cannotWrite(path: String, errno: Int32)
    /// The state file could not be read as state, and moving it aside failed too. Nothing was changed.
    case cannotMoveAside(path: String, destination: String, errno: Int32, reason: String)
    /// The state could not be encoded as JSON (a payload that throws from `encode(to:)`, or a non-finite number).
    case cannotEncode(reason: String)

    /// What went wrong, with which file, and what to do.
    package var description: String {
        switch self {
        case .cannotCreateDirectory(let path, let code):
            "cannot create the state directory \(path): \(errorText(code)); make its parent writable by you, "
                + "or set XDG_STATE_HOME to a directory you own"
        case .cannotRead(let path, let code):
            "cannot read the state file \(path): \(errorText(code)); it must be a regular file owned by you "
                + "(mode 0600), fix its owner or permissions"
        case .cannotWrite(let path, let code):
            "cannot write the state file \(path): \(errorText(code)); the previous state is unchanged. "
                + "Free disk space, or make the directory writable by you"
        case .cannotMoveAside(let path, let destination, let code, let reason):
            "the state file \(path) cannot be read (\(reason)) and could not be moved to \(destination): "
                + "\(errorText(code)); move or delete it yourself, then start again"
        case .cannotEncode(let reason):
            "the state could not be encoded as JSON (\(reason)); the previous state file is unchanged"
        }
    }
}

/// The C library's text for an errno value, with the value.
func errorText(_ code: Int32) -> String {
    "\(String(cString: strerror(code))) (errno \(code))"
}
