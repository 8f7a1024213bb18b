import DBusCore
import NotificationModel

/// When a `Post` fires, as its scheduling keys say it (``PostKeys/scheduling``).
///
/// Close to `NotificationTrigger`, but what the wire says: `in` with `repeat` counts from the moment of posting,
/// and a `fire-date` in seconds with `time-zone` names the wall-clock time that instant has in the user's zone; the
/// daemon turns both into triggers when it receives them.
public enum PostSchedule: Sendable, Hashable {
    /// `fire-date` (with `time-zone` `'local'` for a wall-clock time), and `repeat` as an interval name.
    case date(FireDate, repeat: RepeatRule.Interval? = nil)
    /// `fire-date` in seconds with `time-zone` `'local'`: the wall-clock time of that instant in the user's zone.
    case wallClockOfInstant(secondsSince1970: Double, repeat: RepeatRule.Interval? = nil)
    /// `in`: seconds after posting, and `repeat` as an interval name counted from then.
    case delay(seconds: Double, repeat: RepeatRule.Interval? = nil)
    /// `calendar`, and `repeat` `<true>` for every match.
    case calendar(CalendarMatch, repeats: Bool = false)

    /// The schedule that says `trigger`; `nil` for a repeating time interval, which has no form in the interface
    /// (use a date trigger with a repeat interval).
    public init?(_ trigger: NotificationTrigger) {
        switch trigger {
        case .date(let fireDate, let rule): self = .date(fireDate, repeat: rule?.interval)
        case .timeInterval(let seconds, false): self = .delay(seconds: seconds)
        case .timeInterval(_, true): return nil
        case .calendar(let match, let repeats): self = .calendar(match, repeats: repeats)
        }
    }

    /// The scheduling keys.
    public var entries: WireEntries {
        var entries = WireEntries()
        switch self {
        case .date(let fireDate, let interval):
            entries[PostKeys.fireDate] = fireDate
            if fireDate.followsTimeZone { entries[PostKeys.timeZone] = PostKeys.followingZoneNames[0] }
            entries[PostKeys.repeat] = interval.map(RepeatChoice.interval)
        case .wallClockOfInstant(let seconds, let interval):
            entries[PostKeys.fireDate] = .instant(secondsSince1970: seconds)
            entries[PostKeys.timeZone] = PostKeys.followingZoneNames[0]
            entries[PostKeys.repeat] = interval.map(RepeatChoice.interval)
        case .delay(let seconds, let interval):
            entries[PostKeys.delay] = seconds
            entries[PostKeys.repeat] = interval.map(RepeatChoice.interval)
        case .calendar(let match, let repeats):
            entries[PostKeys.calendar] = match
            entries[PostKeys.repeat] = .everyMatch(repeats)
        }
        return entries
    }
}

extension RepeatRule {
    /// The interval of the rule.
    public var interval: Interval {
        switch self {
        case .interval(let interval): interval
        }
    }
}
