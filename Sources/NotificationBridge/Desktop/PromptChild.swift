import ProcessSupport
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Runs a prompt program: started with `posix_spawn` (never a shell), its standard output collected through a pipe on
/// a thread of its own, bounded in time.
///
/// The program runs in a process group of its own, so that stopping it (timeout, cancellation) also stops what it
/// started. Its standard input and error are `/dev/null`: toolkits print warnings there, and nothing of the prompt
/// belongs in the daemon's log.
enum PromptChild {
    /// How the program ended.
    enum Ending: Sendable, Equatable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case signaled(Int32)
        /// It ran past the time limit and was stopped.
        case timedOut
        /// The waiting task was cancelled and the program was stopped.
        case cancelled
    }

    /// Output beyond this is read and discarded, so a runaway program cannot fill memory.
    static let outputLimit = 1 << 20

    /// Starts `executable` with `arguments` (the full argv, program name first) and `environment` (`NAME=value`
    /// lines), and returns how it ended with what it wrote to standard output. Starting and waiting both happen on a
    /// ``DesktopWorkerThread``.
    ///
    /// - Throws: ``TextPromptError/cannotStart(program:reason:)`` when it cannot be started.
    static func run(executable: String, arguments: [String], environment: [String], timeout: Duration)
        async throws(TextPromptError) -> (ending: Ending, output: [UInt8])
    {
        let stop = StopRequest()
        let result = await withTaskCancellationHandler {
            await DesktopWorkerThread.run { () -> Result<(ending: Ending, output: [UInt8]), TextPromptError> in
                let deadline = ContinuousClock.now + timeout
                do throws(TextPromptError) {
                    let child = try spawn(executable: executable, arguments: arguments, environment: environment)
                    return .success(collect(pid: child.pid, output: child.output, deadline: deadline, stop: stop))
                } catch {
                    return .failure(error)
                }
            }
        } onCancel: {
            stop.requested.store(true, ordering: .relaxed)
        }
        return try result.get()
    }

    /// Set by the waiting task's cancellation, read by the collecting thread.
    private final class StopRequest: Sendable {
        let requested = Atomic<Bool>(false)
    }

    private static func spawn(executable: String, arguments: [String], environment: [String])
        throws(TextPromptError) -> (pid: pid_t, output: Int32)
    {
        func failure(_ code: Int32) -> TextPromptError {
            .cannotStart(program: executable, reason: String(cString: strerror(code)))
        }
        // Close-on-exec on both ends, so programs started by other threads do not keep the pipe open.
        let ends: [Int32]
        do {
            let pipe = try ClosedOnExecPipe.make()
            ends = [pipe.read, pipe.write]
        } catch {
            throw failure(error.code)
        }

        let result = ChildSpawner.spawn(
            executable: executable, arguments: arguments, environment: environment, standardOutput: ends[1])
        close(ends[1])
        switch result {
        case .success(let pid):
            return (pid, ends[0])
        case .failure(let error):
            close(ends[0])
            throw failure(error.code)
        }
    }

    /// Reads the program's output until it has exited and the pipe is drained, stopping it at `deadline` or when
    /// asked. Blocks: runs on a ``DesktopWorkerThread``. Closes `output`.
    private static func collect(pid: pid_t, output: Int32, deadline: ContinuousClock.Instant, stop: StopRequest)
        -> (ending: Ending, output: [UInt8])
    {
        defer { close(output) }
        var bytes: [UInt8] = []
        var endOfOutput = false
        var status: Int32?
        while true {
            if status == nil { status = ChildReaper.waitStatus(of: pid, blocking: false) }
            if let status {
                // A program's own children may hold the pipe open: take what is there now, do not wait for them.
                if !endOfOutput { _ = fcntl(output, F_SETFL, O_NONBLOCK) }
                while !endOfOutput, readChunk(output, into: &bytes) > 0 {}
                return (ending(status), bytes)
            }
            if stop.requested.load(ordering: .relaxed) {
                terminate(pid)
                return (.cancelled, [])
            }
            let remaining = deadline - .now
            if remaining <= .zero {
                terminate(pid)
                return (.timedOut, [])
            }
            // Short polls, so that the program's exit and a stop request are noticed soon.
            let milliseconds = Int32((min(remaining, .milliseconds(50)) / .milliseconds(1)).rounded(.up))
            if endOfOutput {
                _ = poll(nil, 0, milliseconds)
                continue
            }
            var entry = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            if poll(&entry, 1, milliseconds) > 0, readChunk(output, into: &bytes) == 0 {
                endOfOutput = true
            }
        }
    }

    /// Reads one chunk; returns its size, 0 at the end of the output, -1 when nothing is available (or on error).
    private static func readChunk(_ descriptor: Int32, into bytes: inout [UInt8]) -> Int {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count > 0, bytes.count < outputLimit {
            bytes += chunk[..<min(count, outputLimit - bytes.count)]
        }
        if count < 0, errno == EINTR { return readChunk(descriptor, into: &bytes) }
        return count
    }

    /// Asks the program's process group to end (SIGTERM), then, after a second, forces it (SIGKILL); reaps the
    /// program.
    private static func terminate(_ pid: pid_t) {
        kill(-pid, SIGTERM)
        let grace = ContinuousClock.now + .seconds(1)
        var reaped = false
        while ContinuousClock.now < grace {
            if ChildReaper.waitStatus(of: pid, blocking: false) != nil {
                reaped = true
                break
            }
            usleep(10_000)
        }
        // Also for what the program started and left behind in its group.
        kill(-pid, SIGKILL)
        if !reaped { _ = ChildReaper.waitStatus(of: pid, blocking: true) }
    }

    private static func ending(_ status: Int32) -> Ending {
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
    }
}
