#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Finds the file a program name stands for, as a shell finds it on `PATH`.
package enum ExecutableSearch {
    /// The search path used when `PATH` is not set.
    package static let defaultSearchPath = "/usr/local/bin:/usr/bin:/bin"

    /// The file to execute: `program` itself when it holds a `/` (and is an executable file), else the first
    /// executable file of that name in the folders of `path` (this process's `PATH` by default). Relative folders of
    /// the search path are skipped: what they name depends on the working directory.
    package static func resolve(_ program: String, path: String? = nil) -> String? {
        if program.contains("/") { return isExecutableFile(program) ? program : nil }
        let path = path ?? getenv("PATH").map { String(cString: $0) } ?? defaultSearchPath
        for folder in path.split(separator: ":") where folder.hasPrefix("/") {
            let candidate = String(folder) + (folder.hasSuffix("/") ? "" : "/") + program
            if isExecutableFile(candidate) { return candidate }
        }
        return nil
    }

    /// Whether `path` is a regular file this process may execute.
    package static func isExecutableFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && access(path, X_OK) == 0
    }
}
