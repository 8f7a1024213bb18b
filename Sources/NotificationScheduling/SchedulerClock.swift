import FoundationEssentials
import Glibc

/// The wall clock a ``Scheduler`` reads and sleeps on.
///
/// Fire dates are wall-clock instants (`Date`), so the clock tells the wall-clock time and sleeps until one.
/// ``SystemSchedulerClock`` is the real one; ``ManualSchedulerClock`` is moved by hand in tests.
package protocol SchedulerClock: Sendable {
    /// The current wall-clock time.
    var now: Date { get }

    /// Time elapsed since an arbitrary start, counting time suspended and never stepped (`CLOCK_BOOTTIME`): what
    /// delays (`in` 60 seconds) count on, whatever is done to the wall clock.
    var elapsed: Duration { get }

    /// Returns at `deadline` or soon after; at once when `deadline` has passed.
    ///
    /// - Throws: `CancellationError` when the task is cancelled first.
    func sleep(until deadline: Date) async throws
}

/// The system's wall clock, sleeping with `Task.sleep(until:tolerance:clock:)` on `ContinuousClock`.
///
/// The sleep is an elapsed-time wait computed from the wall clock when it starts, so it does not see the wall clock
/// being set (by the user or NTP), and whether it sees time spent suspended depends on the platform's timers. The
/// owner therefore calls ``Scheduler/resumedFromSleep()`` after a resume (logind `PrepareForSleep(false)`) and after
/// a clock change: the scheduler delivers what came due and sleeps again from the current wall-clock time. A sleep
/// longer than ``longestSleep`` ends there and is re-armed, a wake-up every 68 years that keeps the duration
/// arithmetic finite.
package struct SystemSchedulerClock: SchedulerClock {
    /// The longest single sleep, in seconds (2^31, about 68 years).
    package static let longestSleep: Double = 2_147_483_648

    /// Makes the system clock.
    package init() {}

    /// `Date()`.
    package var now: Date { Date() }

    /// `CLOCK_BOOTTIME`.
    package var elapsed: Duration {
        var time = timespec()
        clock_gettime(CLOCK_BOOTTIME, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }

    /// Sleeps until `deadline` on the continuous clock.
    package func sleep(until deadline: Date) async throws {
        let seconds = min(deadline.timeIntervalSinceNow, Self.longestSleep)
        guard seconds > 0 else {
            try Task.checkCancellation()
            return
        }
        let clock = ContinuousClock()
        try await Task.sleep(until: clock.now + .seconds(seconds), tolerance: nil, clock: clock)
    }
}
