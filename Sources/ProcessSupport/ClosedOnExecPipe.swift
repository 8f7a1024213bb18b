internal import CLinux

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A pipe whose ends are closed on exec from the moment they exist.
///
/// Made with `pipe()` and then marked with `fcntl`, a pipe is inheritable for an instant, and a program another
/// thread starts in that instant keeps the write end open: the reader then waits for an end of file until that
/// program exits. A child gets an end through `posix_spawn`'s `dup2`, which clears the flag on its copy.
package enum ClosedOnExecPipe {
    /// Makes the pipe: `read` and `write` ends, which the caller closes.
    ///
    /// - Throws: the `errno` value when no pipe can be made (too many open files).
    package static func make() throws(ChildSpawner.SpawnError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard nb_pipe_cloexec(&ends) == 0 else { throw ChildSpawner.SpawnError(code: errno) }
        return (ends[0], ends[1])
    }
}
