import FoundationEssentials
import NotificationModel

/// Computes when triggers fire, with wall-clock times read in one time zone.
///
/// The rules, in one place:
/// - **Instants are fixed.** `FireDate/instant(secondsSince1970:)` and time intervals ignore the zone.
/// - **Wall-clock times follow the user.** `FireDate/wallClock(_:)` dates and calendar matches are read in
///   ``timeZone``; make a new evaluator when the zone changes, and the same trigger gives new instants.
/// - **Repeats count from the first fire date.** Occurrence *k* is the first fire date plus *k* intervals, never the
///   previous occurrence plus one, so a monthly series on the 31st fires on the 30th in April, on the 28th (or
///   29th) in February, and on the 31st again in May; a yearly series on 29 February fires on 28 February in
///   common years. Days and longer keep the wall-clock time across daylight-saving changes; minutes and hours are
///   elapsed time (see `RepeatRule/Interval`). Repeats of an instant are counted in UTC.
/// - **Gaps and overlaps.** A wall-clock time that the clock skips (spring forward) resolves to the first instant
///   after the gap: 02:30 on the night the clock jumps from 02:00 to 03:00 fires at 03:00. A time the clock shows
///   twice (fall back) resolves to its first occurrence only, so it fires once. (Foundation's
///   `Calendar.date(from:)` instead moves a skipped time by the gap's length, to 03:30.)
/// - **Calendar** arithmetic is the proleptic Gregorian calendar of `LocalDateTime`, computed here rather than with
///   `Calendar`, so that the rules above hold exactly and do not depend on the platform's Foundation.
///
/// Values of this type are cheap to make and safe to share.
package struct TriggerEvaluator: Sendable {
    /// The zone wall-clock times are read in: the user's current zone.
    package let timeZone: TimeZoneRules

    /// Makes an evaluator for the user's current zone, or another one for tests.
    package init(timeZone: TimeZoneRules = SystemTimeZone.read()) {
        self.timeZone = timeZone
    }

    /// The first time `trigger` fires strictly after `date`; `nil` when it has no occurrence after `date`.
    ///
    /// - Parameters:
    ///   - date: The time to look after: the last time the notification fired, or `.distantPast` for its first
    ///     occurrence.
    ///   - trigger: A valid trigger; an invalid one (see `NotificationTrigger/validate()`) returns `nil`.
    ///   - anchor: When the notification was scheduled. Time intervals count from it; calendar matches fire only
    ///     after it (a one-shot match fires at its first match after it). Date triggers ignore it.
    package func nextFireDate(after date: Date, for trigger: NotificationTrigger, anchor: Date) -> Date? {
        guard (try? trigger.validate()) != nil else { return nil }
        switch trigger {
        case .date(let fireDate, nil):
            let instant = self.date(for: fireDate)
            return instant > date ? instant : nil
        case .date(let fireDate, .interval(let interval)?):
            return seriesOccurrence(after: date, start: fireDate, interval: interval)
        case .timeInterval(let seconds, let repeats):
            return intervalOccurrence(after: date, anchor: anchor, seconds: seconds, repeats: repeats)
        case .calendar(let match, true):
            return firstMatch(of: match, after: max(date, anchor))
        case .calendar(let match, false):
            guard let only = firstMatch(of: match, after: anchor) else { return nil }
            return only > date ? only : nil
        }
    }

    /// The first time `trigger` fires: its fire date (even when that has passed), `anchor` plus its interval, or its
    /// first match after `anchor`. `nil` for an invalid trigger.
    package func firstFireDate(for trigger: NotificationTrigger, anchor: Date) -> Date? {
        nextFireDate(after: .distantPast, for: trigger, anchor: anchor)
    }

    /// What to do for a notification whose fire time may have passed while nothing was running (the daemon was
    /// stopped, or the machine slept).
    ///
    /// An occurrence that passed undelivered is delivered **once**, however many periods of a repeating trigger
    /// passed; the series then continues with its first occurrence after `now`.
    ///
    /// - Parameters:
    ///   - trigger: The notification's trigger.
    ///   - anchor: When it was scheduled (see ``nextFireDate(after:for:anchor:)``).
    ///   - lastFired: When it was last delivered; `nil` if never.
    ///   - now: The current time.
    package func missedFire(for trigger: NotificationTrigger, anchor: Date, lastFired: Date?, now: Date) -> MissedFire {
        guard let pending = nextFireDate(after: lastFired ?? .distantPast, for: trigger, anchor: anchor) else {
            return MissedFire(missedOccurrence: nil, nextFireDate: nil)
        }
        guard pending <= now else { return MissedFire(missedOccurrence: nil, nextFireDate: pending) }
        return MissedFire(
            missedOccurrence: pending,
            nextFireDate: nextFireDate(after: now, for: trigger, anchor: anchor)
        )
    }

    /// The instant a fire date names: the instant itself, or the wall-clock time resolved in ``timeZone``.
    package func date(for fireDate: FireDate) -> Date {
        switch fireDate {
        case .instant(let seconds): Date(timeIntervalSince1970: seconds)
        case .wallClock(let time): date(for: time)
        }
    }

    /// The instant the wall-clock time `time` names in ``timeZone``.
    ///
    /// A skipped time (spring-forward gap) gives the first instant after the gap; a time shown twice (fall back)
    /// gives the first of the two instants.
    package func date(for time: LocalDateTime) -> Date {
        Date(timeIntervalSince1970: Double(resolve(time)))
    }

    /// The wall-clock time ``timeZone`` shows at `date`, to the whole second (rounded down).
    package func localDateTime(for date: Date) -> LocalDateTime {
        let seconds = Self.wholeSeconds(date)
        return LocalDateTime(secondsSince1970InUTC: seconds + offset(at: seconds))
    }

    /// The instant that shows, in ``timeZone``, the wall-clock time `date` showed in `zone`.
    ///
    /// Used when the user's zone changes, to carry the times a wall-clock trigger was scheduled and last fired at
    /// into the new zone, so that no occurrence fires twice and none is skipped.
    package func rebased(_ date: Date, from zone: TimeZoneRules) -> Date {
        guard zone != timeZone, date != .distantPast, date != .distantFuture else { return date }
        let fraction = date.timeIntervalSince1970 - Double(Self.wholeSeconds(date))
        let wallClock = TriggerEvaluator(timeZone: zone).localDateTime(for: date)
        return self.date(for: wallClock).addingTimeInterval(fraction)
    }

    /// The whole seconds since 1970 at or before `date`.
    static func wholeSeconds(_ date: Date) -> Int {
        Int(date.timeIntervalSince1970.rounded(.down))
    }
}
