import DBusCore
internal import ProcessSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The one rule for an `exec` command, which the daemon applies when it reads `Post` and every client before it
/// sends one: an argv (never a shell string) whose first element is the program, either a name searched on the
/// daemon's `PATH` or an absolute path.
///
/// ```swift
/// try ExecRule.checkForm(["notify-handler", "--flag"])      // a name: found on the daemon's PATH
/// try ExecRule.checkForm(["/usr/bin/notify-handler"])       // an absolute path
/// try ExecRule.checkForm(["./handler"])                     // throws: a relative path
/// ```
public enum ExecRule {
    /// The most elements an argv may have.
    public static let maximumArguments = 256
    /// The most bytes the elements of an argv may have together.
    public static let maximumBytes = 64 * 1024
    /// Where a program name is searched when `PATH` is not set.
    public static let defaultSearchPath = ExecutableSearch.defaultSearchPath

    /// Checks the form of an argv: the program first, not empty, not a relative path; within the size limits.
    ///
    /// This is what a client can check; whether the program exists is for the daemon (``check(_:)``), whose `PATH`
    /// may differ.
    ///
    /// - Parameter argv: the command, program first.
    /// - Throws: `InvalidArgument` about `Post`'s key `exec`, saying what to change (``KeyFailure``).
    public static func checkForm(_ argv: [String]) throws(DBusFailure) {
        guard let program = argv.first, !program.isEmpty else {
            throw key.invalid("needs the program first, e.g. 'exec': <['/usr/bin/my-handler', '--flag']>")
        }
        guard argv.count <= maximumArguments else {
            throw key.invalid("has \(argv.count) entries; at most \(maximumArguments) are allowed")
        }
        let bytes = argv.reduce(0) { $0 + $1.utf8.count }
        guard bytes <= maximumBytes else {
            throw key.invalid(
                "is \(bytes) bytes long; at most \(maximumBytes) are allowed, pass large data in user-info or a file")
        }
        guard program.hasPrefix("/") || !program.contains("/") else {
            throw key.invalid(
                "starts with \(quotedForMessage(program)), a relative path; give an absolute path, or a program "
                    + "name found on the daemon's PATH")
        }
    }

    /// Checks the form of an argv and that its program can be executed here: what the daemon does when it reads
    /// `Post`, so that a mistake shows then, not when the user acts.
    ///
    /// - Throws: `InvalidArgument` about `Post`'s key `exec`, saying what to change (``KeyFailure``).
    public static func check(_ argv: [String]) throws(DBusFailure) {
        try checkForm(argv)
        let program = argv[0]
        guard resolve(program) != nil else {
            throw key.invalid(
                "names \(quotedForMessage(program)), which is not "
                    + (program.contains("/") ? "an executable file" : "an executable on the daemon's PATH")
                    + "; check the path and its execute permission")
        }
    }

    /// The key whose value an argv is, which the errors name.
    private static let key = KeyPlace(place: "notification", key: "exec")

    /// The file to execute: `program` itself when it is a path, else the first match on `path` (this process's
    /// `PATH` by default).
    public static func resolve(_ program: String, path: String? = nil) -> String? {
        ExecutableSearch.resolve(program, path: path)
    }
}
