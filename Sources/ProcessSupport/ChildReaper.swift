#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Collects the exit of child processes with `waitpid`, so that none is left a zombie.
package enum ChildReaper {
    /// The raw wait status of `pid` once it has ended (reaping it); `nil` when `blocking` is false and it still runs,
    /// or when it is not a child of this process.
    package static func waitStatus(of pid: pid_t, blocking: Bool) -> Int32? {
        var status: Int32 = 0
        let result = InterruptedCalls.retrying { waitpid(pid, &status, blocking ? 0 : WNOHANG) }
        return result == pid ? status : nil
    }

    /// The status a shell reports for the raw wait status `raw`: the exit status, or 128 + the signal number when a
    /// signal ended the process.
    package static func exitStatus(fromWaitStatus raw: Int32) -> Int32 {
        (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
    }

    /// Waits for `pid` to end and returns its ``exitStatus(fromWaitStatus:)``; -1 when it is not a child of this
    /// process.
    package static func exitStatus(waitingFor pid: pid_t) -> Int32 {
        waitStatus(of: pid, blocking: true).map(exitStatus(fromWaitStatus:)) ?? -1
    }
}
