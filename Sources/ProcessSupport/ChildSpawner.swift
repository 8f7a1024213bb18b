#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Starts programs directly with `posix_spawn` — never through a shell — the way the bridge's prompt and the
/// daemon's response commands need.
///
/// The child gets an empty signal mask and default handlers (Swift's runtime threads block signals, and a child would
/// inherit that), and its own process group, so it and anything it starts can be stopped together.
package enum ChildSpawner {
    /// Starts `executable` with `arguments` (its `argv`, the program name first) and `environment` (`NAME=value`
    /// lines). Descriptors given are made the child's standard input, output and error; `nil` means `/dev/null`.
    ///
    /// - Returns: the child's process id, or the error `posix_spawn` reported.
    package static func spawn(
        executable: String, arguments: [String], environment: [String], standardInput: Int32? = nil,
        standardOutput: Int32? = nil, standardError: Int32? = nil
    ) -> Result<pid_t, SpawnError> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let streams: [(Int32, Int32?, Int32)] = [
            (0, standardInput, O_RDONLY), (1, standardOutput, O_WRONLY), (2, standardError, O_WRONLY),
        ]
        for (target, source, mode) in streams {
            if let source {
                posix_spawn_file_actions_adddup2(&actions, source, target)
            } else {
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", mode, 0)
            }
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        var result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        // A program file written a moment ago (by an installer, a test) stays "busy" while a child that another thread
        // forked meanwhile still holds it open; that lasts until the child executes, so retry briefly.
        var pause: useconds_t = 5_000
        while result == ETXTBSY, pause <= 160_000 {
            usleep(pause)
            pause *= 2
            result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        }
        return result == 0 ? .success(pid) : .failure(SpawnError(code: result))
    }

    /// Why a program could not be started: the `errno` value of `posix_spawn`, or of the pipe made for it.
    package struct SpawnError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The `errno` value.
        package var code: Int32
        /// The system's text for it.
        package var description: String { String(cString: strerror(code)) }
    }
}
