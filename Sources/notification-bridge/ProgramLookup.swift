#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Whether a program can be started: the command line checks a response command before the daemon starts it later.
enum ProgramLookup {
    /// Whether `program` (a path with a `/`, or a name looked up on `PATH`) is an executable file.
    static func isRunnable(_ program: String) -> Bool {
        if program.contains("/") { return isExecutableFile(program) }
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").contains { isExecutableFile("\($0)/\(program)") }
    }

    private static func isExecutableFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG && access(path, X_OK) == 0
    }
}
