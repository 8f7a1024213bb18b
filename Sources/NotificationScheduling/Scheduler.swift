import FoundationEssentials
import Logging
import NotificationModel

/// Holds scheduled notifications and delivers each when its trigger fires.
///
/// ``run()`` sleeps until the earliest fire date, in a child task of its own, and waits for a change when nothing is
/// scheduled: no polling, no wake-ups while idle. It is woken when the earliest date changes (schedule, withdraw,
/// delivery, time-zone change) and on ``resumedFromSleep()``. Its owner runs it in its own task group (the daemon's
/// service group), so the scheduler has no task of its own: nothing comes due by the clock once that group ends
/// ``run()``.
///
/// Delivery calls the `fire` closure on the actor, one notification at a time, earliest occurrence first (ties in
/// scheduling order). A notification whose time has already passed (scheduled in the past, or missed while the
/// daemon was stopped or the machine slept) is delivered **once** as soon as the scheduler sees it, however many
/// periods of a repeating trigger passed; the next occurrence is then the first one after now.
///
/// Wall-clock triggers (`NotificationTrigger/followsTimeZone`) follow the user's zone: after
/// ``timeZoneChanged()``, their pending occurrence is the same wall-clock time in the new zone. No occurrence is
/// delivered twice because of a zone change, and none is dropped: one whose wall-clock time has already passed in the
/// new zone is delivered at once.
package actor Scheduler<Payload: Sendable> {
    /// Called on the actor for every delivery. It must not block: hand the work to a task or a stream.
    package typealias Fire = @Sendable (ScheduledFiring<Payload>) -> Void

    /// The wall clock it reads and sleeps on: whoever else times something by the same instants (a focus mode's end)
    /// reads and sleeps on it too, so that one manual clock drives both in a test.
    package nonisolated let clock: any SchedulerClock
    private let currentTimeZone: @Sendable () -> TimeZoneRules
    private let fire: Fire
    let logger: Logger
    private var evaluator: TriggerEvaluator
    private var queue = ScheduleQueue<ScheduledNotification<Payload>>()

    /// The fire date ``run()`` sleeps until, as last told.
    private var armedDeadline: Date?
    /// Wakes ``run()`` to sleep until the earliest date anew (or to deliver, when its sleep ended).
    private let wakes: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation
    /// The wall clock's lead over elapsed time when last looked at: a change is a step of the wall clock.
    private var wallOffset: TimeInterval?

    /// The time on the scheduler's wall clock: what a time interval counts from.
    package var now: Date { clock.now }

    /// Makes a scheduler with nothing scheduled.
    ///
    /// - Parameters:
    ///   - clock: The wall clock to read and sleep on; ``ManualSchedulerClock`` in tests.
    ///   - timeZone: Returns the user's current zone; read at start and by ``timeZoneChanged()``. The default
    ///     re-reads the system zone (`TZ`, `/etc/localtime`) each time.
    ///   - logger: Where deliveries, late deliveries and zone changes are logged (`debug`, `notice`, `info`).
    ///   - fire: Called for every delivery; see ``Fire``.
    package init(
        clock: any SchedulerClock = SystemSchedulerClock(),
        timeZone: @escaping @Sendable () -> TimeZoneRules = Scheduler.systemTimeZone,
        logger: Logger = Logger(label: "io.github.NotificationBridge.scheduler"),
        fire: @escaping Fire
    ) {
        self.clock = clock
        self.currentTimeZone = timeZone
        self.logger = logger
        self.fire = fire
        self.evaluator = TriggerEvaluator(timeZone: timeZone())
        (wakes, wake) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Delivers each notification when it comes due, until the task is cancelled. Run it once, from the task group
    /// of whoever owns the scheduler; what is already due when a method is called is delivered by that method.
    package func run() async {
        var woken = wakes.makeAsyncIterator()
        while !Task.isCancelled {
            let deadline = queue.peek()?.fireDate
            armedDeadline = deadline
            let clock = clock
            let wake = wake
            let next: Void? = await withDiscardingTaskGroup { group in
                if let deadline {
                    group.addTask {
                        // Cancelled when woken for a newer deadline; else the sleep's end is the wake.
                        guard (try? await clock.sleep(until: deadline)) != nil else { return }
                        wake.yield()
                    }
                }
                defer { group.cancelAll() }
                return await woken.next(isolation: #isolation)
            }
            guard next != nil, !Task.isCancelled else { return }
            fireDue()
        }
    }

    /// The system's current time zone, read afresh.
    @Sendable
    package static func systemTimeZone() -> TimeZoneRules {
        SystemTimeZone.read()
    }

    /// The zone wall-clock triggers are read in now.
    package var timeZone: TimeZoneRules { evaluator.timeZone }

    /// Schedules a notification, replacing any with the same id.
    ///
    /// A date trigger whose date has passed is delivered at once (before this method returns).
    ///
    /// - Returns: When it fires first; `nil` when it never will (a one-shot calendar match with no date left before
    ///   the year 10000), in which case nothing is scheduled.
    /// - Throws: `TriggerValidationError` when the trigger is invalid; nothing is scheduled then.
    @discardableResult
    package func schedule(
        id: String,
        appName: String? = nil,
        trigger: NotificationTrigger,
        payload: Payload
    ) throws(TriggerValidationError) -> Date? {
        try trigger.validate()
        followWallClockSteps()
        let notification = ScheduledNotification(
            id: id,
            appName: appName,
            trigger: trigger,
            payload: payload,
            scheduledAt: clock.now,
            timeZoneIdentifier: evaluator.timeZone.identifier
        )
        queue.remove(id: id)
        let first = enqueue(notification)
        logger.debug(
            "scheduled",
            metadata: ["notification.id": "\(id)", "notification.fire-date": "\(first.map { "\($0)" } ?? "never")"]
        )
        fireDueAndArm()
        return first
    }

    /// Takes back notifications saved by an earlier run, delivering at once (once each) those whose time passed
    /// while nothing was running.
    ///
    /// Wall-clock triggers saved in another zone than the current one are moved to the current zone first (see
    /// ``ScheduledNotification/timeZoneIdentifier``). A notification with an id already scheduled replaces it.
    ///
    /// - Returns: The notifications not taken back: finished ones, and ones whose trigger no longer validates.
    @discardableResult
    package func restore(_ notifications: [ScheduledNotification<Payload>]) -> ScheduleRestoreReport<Payload> {
        var report = ScheduleRestoreReport<Payload>()
        followWallClockSteps()
        var changes: [(id: String, entry: (fireDate: Date, value: ScheduledNotification<Payload>)?)] = []
        changes.reserveCapacity(notifications.count)
        for var notification in notifications {
            do throws(TriggerValidationError) {
                try notification.trigger.validate()
            } catch {
                report.rejected.append((notification, error))
                continue
            }
            let current = evaluator.timeZone.identifier
            // Most were saved in the current zone: neither moved nor changed, so that no copy is made.
            if let identifier = notification.timeZoneIdentifier, identifier != current,
                let zone = TimeZoneRules(identifier: identifier)
            {
                moveToCurrentZone(&notification, from: zone)
            }
            if notification.timeZoneIdentifier != current { notification.timeZoneIdentifier = current }
            if let next = nextFireDate(of: notification) {
                changes.append((notification.id, (next, notification)))
            } else {
                changes.append((notification.id, nil))
                report.finished.append(notification)
            }
        }
        queue.apply(changes)
        fireDueAndArm()
        return report
    }

    /// Cancels a scheduled notification.
    ///
    /// - Returns: The notification, or `nil` when none had the id.
    @discardableResult
    package func withdraw(id: String) -> ScheduledNotification<Payload>? {
        let removed = queue.remove(id: id)?.value
        arm()
        return removed
    }

    /// Cancels the scheduled notifications whose ids are in `ids`: one call for a withdrawal of thousands.
    ///
    /// - Returns: The cancelled notifications, earliest first.
    @discardableResult
    package func withdraw(ids: Set<String>) -> [ScheduledNotification<Payload>] {
        let removed = queue.removeAll { ids.contains($0.id) }.map(\.value)
        arm()
        return removed
    }

    /// Cancels every scheduled notification of an application.
    ///
    /// - Returns: The cancelled notifications, earliest first.
    @discardableResult
    package func withdrawAll(appName: String) -> [ScheduledNotification<Payload>] {
        let removed = queue.removeAll { $0.value.appName == appName }.map(\.value)
        arm()
        return removed
    }

    /// Cancels every scheduled notification.
    ///
    /// - Returns: The cancelled notifications, earliest first.
    @discardableResult
    package func withdrawAll() -> [ScheduledNotification<Payload>] {
        let removed = queue.removeAll { _ in true }.map(\.value)
        arm()
        return removed
    }

    /// The scheduled notifications with their next fire dates, earliest first.
    package func pending() -> [PendingNotification<Payload>] {
        queue.sortedEntries().map { PendingNotification(notification: $0.value, nextFireDate: $0.fireDate) }
    }

    /// The scheduled notification with `id` and its next fire date, if scheduled.
    package func pending(id: String) -> PendingNotification<Payload>? {
        queue[id].map { PendingNotification(notification: $0.value, nextFireDate: $0.fireDate) }
    }

    /// Re-reads the user's time zone and, when it changed, moves every wall-clock trigger to it.
    ///
    /// Call it when the system zone changes (timedated's `Timezone` property, `/etc/localtime`). Occurrences whose
    /// wall-clock time has already passed in the new zone are delivered at once.
    package func timeZoneChanged() {
        let newZone = currentTimeZone()
        let oldZone = evaluator.timeZone
        guard newZone != oldZone else { return }
        logger.info(
            "time zone changed; moving wall-clock notifications",
            metadata: ["timezone.old": "\(oldZone.identifier)", "timezone.new": "\(newZone.identifier)"]
        )
        evaluator = TriggerEvaluator(timeZone: newZone)
        for entry in queue.unorderedEntries where entry.value.trigger.followsTimeZone {
            var notification = entry.value
            moveToCurrentZone(&notification, from: oldZone)
            queue.remove(id: notification.id)
            enqueue(notification)
        }
        fireDueAndArm()
    }

    /// Delivers what came due while the machine slept, and re-arms the timer from the current wall-clock time.
    ///
    /// Call it after a resume (logind `PrepareForSleep(false)`) and after the wall clock was set: a sleep in progress
    /// measures elapsed time and does not see a clock step.
    package func resumedFromSleep() {
        fireDueAndArm(forceRearm: true)
    }

    /// Delivers what came due because the wall clock was set forward, and moves delays so that they still count
    /// elapsed time.
    ///
    /// Call it when the system reports a step of the wall clock (``WallClockSteps``): a sleep in progress measures
    /// elapsed time and does not see the step.
    package func clockStepped() {
        fireDueAndArm(forceRearm: true)
    }

    // MARK: - Queue and timer

    /// How late a delivery must be to be logged as a missed one (after downtime, a suspend or a zone change).
    private static var lateDeliveryThreshold: TimeInterval { 60 }

    /// Queues a notification at its pending occurrence.
    ///
    /// - Returns: The occurrence, or `nil` when the trigger has none left and the notification was not queued.
    @discardableResult
    private func enqueue(_ notification: ScheduledNotification<Payload>) -> Date? {
        guard let next = nextFireDate(of: notification) else { return nil }
        queue.insert(id: notification.id, fireDate: next, value: notification)
        return next
    }

    /// When `notification` is next due; `nil` when it will never be.
    private func nextFireDate(of notification: ScheduledNotification<Payload>) -> Date? {
        evaluator.nextFireDate(
            after: notification.lastFiredAt ?? .distantPast, for: notification.trigger,
            anchor: notification.scheduledAt)
    }

    /// Moves the times of a wall-clock trigger from `zone` to the same wall-clock times in the current zone.
    private func moveToCurrentZone(_ notification: inout ScheduledNotification<Payload>, from zone: TimeZoneRules) {
        guard notification.trigger.followsTimeZone, zone != evaluator.timeZone else { return }
        notification.scheduledAt = evaluator.rebased(notification.scheduledAt, from: zone)
        notification.lastFiredAt = notification.lastFiredAt.map { evaluator.rebased($0, from: zone) }
        notification.timeZoneIdentifier = evaluator.timeZone.identifier
    }

    /// Delivers every notification that is due, queues each repeating one at its first occurrence after now, and
    /// arms the timer for the earliest remaining date.
    private func fireDueAndArm(forceRearm: Bool = false) {
        fireDue()
        arm(force: forceRearm)
    }

    /// Delivers every notification that is due and queues each repeating one at its first occurrence after now.
    private func fireDue() {
        followWallClockSteps()
        let now = clock.now
        for entry in queue.popDue(now: now) {
            var notification = entry.value
            notification.lastFiredAt = now
            notification.timeZoneIdentifier = evaluator.timeZone.identifier
            let next = enqueue(notification)
            let firing = ScheduledFiring(
                notification: notification,
                occurrence: entry.fireDate,
                firedAt: now,
                nextFireDate: next
            )
            var metadata: Logger.Metadata = ["notification.id": "\(notification.id)"]
            if let next { metadata["notification.next-fire-date"] = "\(next)" }
            if firing.delay >= Self.lateDeliveryThreshold {
                metadata["notification.due"] = "\(entry.fireDate)"
                logger.notice("delivering late", metadata: metadata)
            } else {
                logger.debug("delivering", metadata: metadata)
            }
            fire(firing)
        }
    }

    /// Delays (time-interval triggers) count elapsed time, fire dates the wall clock: when the wall clock was
    /// stepped since the last look, by however much, every time-interval notification moves with it, so that it comes
    /// due after the same elapsed time as before the step.
    private func followWallClockSteps() {
        let offset = clock.now.timeIntervalSince1970 - Self.seconds(clock.elapsed)
        defer { wallOffset = offset }
        guard let previous = wallOffset else { return }
        let step = offset - previous
        guard abs(step) >= 0.001 else { return }
        var moved = 0
        for entry in queue.unorderedEntries {
            guard case .timeInterval = entry.value.trigger else { continue }
            var notification = entry.value
            notification.scheduledAt = notification.scheduledAt.addingTimeInterval(step)
            notification.lastFiredAt = notification.lastFiredAt?.addingTimeInterval(step)
            queue.remove(id: notification.id)
            queue.insert(id: notification.id, fireDate: entry.fireDate.addingTimeInterval(step), value: notification)
            moved += 1
        }
        if abs(step) >= 1 {
            logger.info(
                "the wall clock was set; delays keep counting elapsed time",
                metadata: ["clock.step-seconds": "\(step)", "count": "\(moved)"])
        }
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }

    /// Wakes ``run()`` when the earliest fire date is not the one it sleeps until (or always, with `force`: the
    /// clock moved under the sleep).
    private func arm(force: Bool = false) {
        let earliest = queue.peek()?.fireDate
        if !force, armedDeadline == earliest { return }
        armedDeadline = earliest
        wake.yield()
    }
}
