import FoundationEssentials
import Synchronization

/// A wall clock that moves only when told to, so that scheduler tests run deterministically and without real waits.
///
/// ``sleep(until:)`` suspends as the system's sleep does: until as much time has elapsed as there was to the deadline
/// when the sleep began (``advance(by:)`` moves both the wall clock and the elapsed time). ``set(to:)`` steps the wall
/// clock alone, as `date -s` or NTP does, and wakes the sleepers whose deadline it reaches, as the owner's
/// ``Scheduler/clockStepped()`` does after the system reports a step. The clock also reports who is asleep (``sleepDeadlines``) and how often anyone slept (``sleepCount``), so a test can
/// check that a scheduler sleeps until the right moment and does not wake when nothing is due.
package final class ManualSchedulerClock: SchedulerClock, Sendable {
    private struct Sleeper {
        let deadline: Date
        /// ``ManualSchedulerClock/elapsed`` at which the sleep ends, fixed when it began.
        let elapsedDeadline: TimeInterval
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct Waiter {
        /// Whether the deadlines of the tasks asleep, earliest first, are what the waiter waits for.
        let isSatisfied: @Sendable ([Date]) -> Bool
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var now: Date
        var elapsed: TimeInterval = 0
        var sleepers: [UInt64: Sleeper] = [:]
        var waiters: [UInt64: Waiter] = [:]
        var nextID: UInt64 = 0
        var sleepCount = 0

        /// Takes the waiters whose sleepers are as they wait for.
        mutating func takeSatisfiedWaiters() -> [Waiter] {
            guard !waiters.isEmpty else { return [] }
            let deadlines = sleepers.values.map(\.deadline).sorted()
            let satisfied = waiters.filter { $0.value.isSatisfied(deadlines) }
            for id in satisfied.keys { waiters[id] = nil }
            return Array(satisfied.values)
        }
    }

    private let state: Mutex<State>

    /// Makes a clock showing `now`.
    package init(now: Date) {
        state = Mutex(State(now: now))
    }

    /// The time the clock shows.
    package var now: Date { state.withLock { $0.now } }

    /// Time elapsed since the clock was made: moved by ``advance(by:)``, not by ``set(to:)``.
    package var elapsed: Duration { .seconds(state.withLock { $0.elapsed }) }

    /// The deadlines of the tasks sleeping now, earliest first.
    package var sleepDeadlines: [Date] {
        state.withLock { $0.sleepers.values.map(\.deadline) }.sorted()
    }

    /// How many times ``sleep(until:)`` has been called with a deadline in the future.
    package var sleepCount: Int { state.withLock { $0.sleepCount } }

    /// Lets `seconds` pass: the wall clock and the elapsed time move forward together, and the sleepers whose time
    /// has elapsed wake.
    package func advance(by seconds: TimeInterval) {
        wake { state in
            state.now = state.now.addingTimeInterval(seconds)
            state.elapsed += seconds
            let elapsed = state.elapsed
            return { $0.elapsedDeadline <= elapsed }
        }
    }

    /// The machine is suspended for `seconds`: the wall clock and the elapsed time move forward together, and nobody
    /// wakes until the owner hears of the resume (``Scheduler/resumedFromSleep()``) or time passes after it.
    package func suspend(for seconds: TimeInterval) {
        state.withLock { state in
            state.now = state.now.addingTimeInterval(seconds)
            state.elapsed += seconds
        }
    }

    /// Sets the wall clock to `date`, forward or back (a step; elapsed time does not move), and wakes the sleepers
    /// whose deadline the wall clock has reached.
    package func set(to date: Date) {
        wake { state in
            state.now = date
            return { $0.deadline <= date }
        }
    }

    /// Changes the state and wakes the sleepers that `change` returns a test for, earliest deadline first.
    private func wake(_ change: (inout State) -> (Sleeper) -> Bool) {
        let (woken, waiters) = state.withLock { state -> ([Sleeper], [Waiter]) in
            let isDue = change(&state)
            let due = state.sleepers.filter { isDue($0.value) }
            for id in due.keys { state.sleepers[id] = nil }
            return (due.values.sorted { $0.deadline < $1.deadline }, state.takeSatisfiedWaiters())
        }
        for sleeper in woken { sleeper.continuation.resume() }
        for waiter in waiters { waiter.continuation.resume() }
    }

    /// Returns once at least `count` tasks are asleep on the clock.
    ///
    /// Tests use it before advancing the clock, to be sure the scheduler has armed its timer; bound the wait with a
    /// timeout (cancelling the task ends the wait).
    package func waitForSleepers(count: Int = 1) async {
        await waitForSleepDeadlines { $0.count >= count }
    }

    /// Returns once the deadlines of the tasks asleep on the clock, earliest first, satisfy `isSatisfied` (at once
    /// when they do already); bound the wait with a timeout (cancelling the task ends the wait).
    package func waitForSleepDeadlines(where isSatisfied: @escaping @Sendable ([Date]) -> Bool) async {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Bool in
                    let deadlines = state.sleepers.values.map(\.deadline).sorted()
                    guard !isSatisfied(deadlines), !Task.isCancelled else { return true }
                    state.waiters[id] = Waiter(isSatisfied: isSatisfied, continuation: continuation)
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume()
        }
    }

    /// Suspends until the clock reaches `deadline`.
    ///
    /// - Throws: `CancellationError` when the task is cancelled first.
    package func sleep(until deadline: Date) async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // Decided under the lock: a cancellation after this point finds the sleeper registered, one before it
                // has already set the task's flag.
                let (outcome, waiters) = state.withLock { state -> (Result<Void, any Error>?, [Waiter]) in
                    if Task.isCancelled { return (.failure(CancellationError()), []) }
                    if deadline <= state.now { return (.success(()), []) }
                    state.sleepCount += 1
                    let elapsedDeadline = state.elapsed + deadline.timeIntervalSince(state.now)
                    state.sleepers[id] = Sleeper(
                        deadline: deadline, elapsedDeadline: elapsedDeadline, continuation: continuation)
                    return (nil, state.takeSatisfiedWaiters())
                }
                for waiter in waiters { waiter.continuation.resume() }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let (sleeper, waiters) = state.withLock { state in
                (state.sleepers.removeValue(forKey: id), state.takeSatisfiedWaiters())
            }
            sleeper?.continuation.resume(throwing: CancellationError())
            for waiter in waiters { waiter.continuation.resume() }
        }
    }
}
