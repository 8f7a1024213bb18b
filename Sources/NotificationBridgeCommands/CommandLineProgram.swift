import EventLoopExecutor

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The program `notification-bridge` (and `notify-send`, when started under that name): reads the command line once
/// (``Invocation/parse(_:invokedAs:)``), runs what it asks for on the main thread, and exits with one of the documented
/// statuses (``ExitStatus``): usage errors exit 2 (not ArgumentParser's 64), failures print one line on standard error,
/// never a stack trace.
package enum CommandLineProgram {
    /// Runs the process's command line and exits.
    package static func main() -> Never {
        let invokedAs = CommandLine.arguments.first ?? ""
        exit(Invocation.parse(Array(CommandLine.arguments.dropFirst()), invokedAs: invokedAs).run())
    }
}

/// Runs a command's work to its end on the main thread, then exits with its status.
///
/// - Parameters:
///   - signals: signals the loop takes instead of their default action, handed to `onSignal` on the main thread.
///
/// The main thread becomes the process's only executor: no thread pool is started (libdispatch's costs a thread or
/// two and their hand-overs on every run), and the command's tasks take turns on it while the bus connection's own
/// thread does the waiting. An `async` `main` would instead start on the main actor and hop to the pool.
func runToEnd(
    signals: [Int32] = [], onSignal: @escaping @Sendable (Int32) -> Void = { _ in },
    _ work: @escaping () async throws -> Void
) -> Never {
    // Handed to the task, which alone runs it.
    nonisolated(unsafe) let work = work
    EventLoopExecutor.runMain(signals: signals, onSignal: onSignal) {
        do {
            try await work()
            return ExitStatus.success
        } catch {
            return CommandOutcome(error).emit()
        }
    }
}
