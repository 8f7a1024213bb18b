#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The one funnel for system calls that a signal may interrupt: a call that fails with `EINTR` is made again, so that a
/// signal handled elsewhere in the process (a debugger, a stop and continue) never reads as a failure.
package enum InterruptedCalls {
    /// Calls `body` until it returns something other than a failure with `EINTR`, and returns that.
    ///
    /// - Parameter body: a system call's wrapper that returns a negative value and sets `errno` on failure.
    /// - Returns: what `body` last returned; `errno` is as `body` left it when that is negative.
    @inlinable
    package static func retrying<Result: SignedInteger>(_ body: () -> Result) -> Result {
        while true {
            let result = body()
            if result < 0, errno == EINTR { continue }
            return result
        }
    }
}
