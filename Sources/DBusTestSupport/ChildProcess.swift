import Foundation
import ProcessSupport

/// A child process started with ``ChildSpawner`` and reaped with `waitpid`.
///
/// Foundation's `Process` waits through a run loop, which stalls when driven from Swift concurrency's threads; tests
/// start many short-lived programs, so they use this small, predictable wrapper instead.
public final class ChildProcess: @unchecked Sendable {
    /// The process id.
    public let pid: pid_t
    // Guarded by `lock`: the exit status once reaped, so that it is reaped once.
    private var status: Int32?
    private let lock = NSLock()

    private init(pid: pid_t) {
        self.pid = pid
    }

    /// Starts `arguments[0]` (looked up on `PATH` unless it holds a `/`).
    ///
    /// - Parameters:
    ///   - environment: the whole environment of the child; `nil` passes this process's own.
    ///   - standardInput, standardOutput, standardError: descriptors to give the child (`nil`: `/dev/null` for input,
    ///     this process's own for output).
    public static func spawn(
        _ arguments: [String], environment: [String: String]? = nil, standardInput: Int32? = nil,
        standardOutput: Int32? = nil, standardError: Int32? = nil
    ) throws -> ChildProcess {
        guard let program = arguments.first else { throw TestSupportError("no program to start") }
        let executable = program.contains("/") ? program : ExecutableLookup.find(program)?.path
        guard let executable else {
            throw TestSupportError(
                "cannot start \(program): it is not on PATH; "
                    + "'make test' installs the programs the tests need")
        }
        let environmentLines = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        // Output the caller does not redirect goes where this process's own goes.
        let result = ChildSpawner.spawn(
            executable: executable, arguments: arguments, environment: environmentLines,
            standardInput: standardInput, standardOutput: standardOutput ?? STDOUT_FILENO,
            standardError: standardError ?? STDERR_FILENO)
        switch result {
        case .success(let pid):
            return ChildProcess(pid: pid)
        case .failure(let error):
            throw TestSupportError("cannot start \(program): \(error)")
        }
    }

    /// Sends `signal` to the process, if it has not been reaped yet.
    public func signal(_ signal: Int32 = SIGTERM) {
        lock.lock()
        defer { lock.unlock() }
        if status == nil { kill(pid, signal) }
    }

    /// The exit status if the process has ended (reaping it), else `nil`. A process killed by a signal reports
    /// 128 + the signal number, as shells do.
    public func poll() -> Int32? {
        lock.lock()
        defer { lock.unlock() }
        if let status { return status }
        guard let raw = ChildReaper.waitStatus(of: pid, blocking: false) else { return nil }
        let exitStatus = ChildReaper.exitStatus(fromWaitStatus: raw)
        status = exitStatus
        return exitStatus
    }

    /// Waits for the process to end, at most `limit`; returns its status, or `nil` when it is still running.
    public func wait(within limit: Duration) async -> Int32? {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if let status = poll() { return status }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return poll()
    }

    /// The same wait, blocking the calling thread (for `deinit`s and `defer`s).
    public func waitBlocking(within limit: Duration) -> Int32? {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if let status = poll() { return status }
            usleep(2_000)
        }
        return poll()
    }

    /// Asks the process to end with SIGTERM, then SIGKILL after `grace`, and reaps it.
    @discardableResult
    public func stop(grace: Duration = .seconds(5)) -> Int32? {
        signal(SIGTERM)
        if let status = waitBlocking(within: grace) { return status }
        signal(SIGKILL)
        return waitBlocking(within: .seconds(5))
    }
}
