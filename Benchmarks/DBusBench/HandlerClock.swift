import Synchronization

/// Takes the time an app's handler starts, with nothing of the benchmark's own running between the server's click
/// and the handler.
///
/// Waiting on a stream with a timeout starts two tasks and a timer for every sample, on the same processors,
/// while the signal is on its way; the C client the library is compared with only sleeps in `poll` then. Here the
/// wait is armed before the click, the handler resumes it directly, and one watchdog for the whole run bounds every
/// wait.
final class HandlerClock: Sendable {
    private struct State {
        var waiter: CheckedContinuation<UInt64, any Error>?
        var finished = 0
    }

    private let state = Mutex(State())

    /// Called first thing in the handler.
    func handlerStarted() {
        let now = monotonicNanoseconds()
        let waiter = state.withLock { state in
            defer {
                state.waiter = nil
                state.finished += 1
            }
            return state.waiter
        }
        waiter?.resume(returning: now)
    }

    /// Arms the wait, runs `click`, and returns when the handler started.
    func time(_ click: () throws -> Void) async throws -> UInt64 {
        try await withCheckedThrowingContinuation { continuation in
            state.withLock { $0.waiter = continuation }
            do {
                try click()
            } catch {
                state.withLock { $0.waiter = nil }
                continuation.resume(throwing: error)
            }
        }
    }

    /// Fails a wait that sees no handler start for `limit` (found within twice that), until `body` returns.
    func bounded<T>(by limit: Duration, waitingFor what: String, _ body: () async throws -> T) async throws -> T {
        let watchdog = Task { [self] in
            var seen = -1
            while !Task.isCancelled {
                try? await Task.sleep(for: limit)
                let stuck = self.state.withLock { state -> CheckedContinuation<UInt64, any Error>? in
                    defer { seen = state.finished }
                    guard state.finished == seen, let waiter = state.waiter else { return nil }
                    state.waiter = nil
                    return waiter
                }
                stuck?.resume(throwing: BenchError("\(what) did not happen within \(limit)"))
            }
        }
        defer { watchdog.cancel() }
        return try await body()
    }
}
