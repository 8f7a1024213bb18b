#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `send --exec-on ACTION -- CMD ARGS…`: the daemon sends every response to its notification's command, so the command
/// it is given is this program in filter form, `notification-bridge --exec-filter ACTION[,ACTION…] -- CMD ARGS…`,
/// which replaces itself (`execvp`, no shell) with CMD when `NOTIFICATION_ACTION` is one of the actions, and exits 0
/// otherwise. The response's environment and standard input (the typed text) go to CMD unchanged.
enum ExecFilter {
    static let flag = "--exec-filter"

    /// The daemon's `exec` argv for `command`, run only for `actions`.
    static func argv(actions: [String], command: [String]) throws -> [String] {
        guard let program = ownPath() else {
            throw CLIFailure(
                "notification-bridge: --exec-on: cannot find this program's own path in /proc/self/exe; "
                    + "mount /proc, or leave --exec-on out and filter on NOTIFICATION_ACTION in the command")
        }
        return [program, flag, actions.joined(separator: ","), "--"] + command
    }

    /// This program's absolute path.
    static func ownPath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Runs the filter form; returns the exit status when the command is not run (or cannot be).
    static func run(_ arguments: [String]) -> Int32 {
        guard arguments.count >= 4, arguments[0] == flag, arguments[2] == "--" else {
            printError(
                "notification-bridge: \(flag) takes ACTION[,ACTION…] -- COMMAND [ARGUMENTS…]; send --exec-on "
                    + "writes it")
            return ExitStatus.usage
        }
        let actions = arguments[1].split(separator: ",").map(String.init)
        let command = Array(arguments[3...])
        guard let chosen = getenv("NOTIFICATION_ACTION").map({ String(cString: $0) }), actions.contains(chosen) else {
            return ExitStatus.success
        }
        var argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        // CMD follows the one exec rule (a name searched on PATH, or an absolute path), as the daemon applies it.
        execvp(command[0], &argv)
        let reason = String(cString: strerror(errno))
        for pointer in argv { free(pointer) }
        printError(
            "notification-bridge: cannot run \(command[0]): \(reason); check that it is installed and "
                + "executable, and post again")
        return ExitStatus.failure
    }
}
