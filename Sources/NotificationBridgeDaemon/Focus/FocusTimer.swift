import ServiceLifecycle

/// Asks again which focus mode is on whenever that may have changed by itself: at the next start or end of a schedule,
/// or the end of what the user said by hand (``FocusState/nextChange(after:in:)``), so that a mode on "for 1h" ends
/// after the hour and what it held is shown; and at once when the user changes the modes, the wall clock steps or the
/// time zone changes (``DaemonCore/focusTimerWake``), so that the end waited for is the one in force.
///
/// It reads and sleeps on the scheduler's clock, as scheduled notifications come due by it, so that a mode's end and a
/// notification due at the same instant agree, and a test's manual clock drives both. It sleeps at most
/// ``longestWait`` at a time: a sleep measures elapsed time, so a step of the wall clock that is not reported is seen
/// at the latest when it wakes, and the mode on is then asked about at the new time.
struct FocusTimer: Service, CustomStringConvertible {
    /// The longest it sleeps before asking again, in seconds.
    static let longestWait: Double = 60

    let core: DaemonCore
    var description: String { "focus modes" }

    func run() async {
        let clock = core.scheduler.clock
        await DaemonServices.untilGracefulShutdown { [core] in
            core.focusTimerWake.yield()
            // Each wait is a child that wakes the loop when it ends; one left from before a change of the modes only
            // makes the loop ask once more, which changes nothing.
            await withDiscardingTaskGroup { group in
                for await _ in core.focusTimerWakes {
                    let deadline = await core.reevaluateFocus(waitingAtMost: Self.longestWait)
                    group.addTask {
                        guard (try? await clock.sleep(until: deadline)) != nil else { return }
                        core.focusTimerWake.yield()
                    }
                }
                group.cancelAll()
            }
        }
    }
}
