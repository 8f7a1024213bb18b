/// The calendar fields a repeating or one-shot calendar trigger matches, such as "every weekday at 09:00".
///
/// The counterpart of `repeatCalendar` with date components (and of `UNCalendarNotificationTrigger`): the trigger
/// fires at the next wall-clock time, in the user's current time zone, whose fields equal every field that is set.
///
/// - Unset date fields (``month``, ``day``, ``weekdays``) match any value.
/// - Time fields: an unset field *coarser* than the coarsest set time field matches any value, an unset field
///   *finer* than it is 0. So `hour: 9` fires at 09:00:00, `minute: 30` fires every hour at :30:00, and a match
///   with no time field fires at midnight.
/// - Fields are matched literally, as on iOS: `day: 31` fires only in months that have a 31st, and
///   `month: 2, day: 29` only in leap years. (A ``NotificationTrigger/date(_:repeat:)`` trigger with a monthly
///   repeat is the way to say "the 31st, or the last day of shorter months".)
/// - A skipped wall-clock time (spring-forward gap) fires at the first instant after the gap; a repeated one
///   (fall-back) fires once, at its first occurrence.
///
/// Encoded as an object whose keys are the set fields: `month`, `day`, `weekdays` (names, see ``Weekday``), `hour`,
/// `minute`, `second`. The initializer does not validate: call ``validate(at:)``.
public struct CalendarMatch: Sendable, Hashable {
    /// The month, 1 (January) – 12 (December); `nil` for every month.
    public var month: Int?
    /// The day of the month, 1–31; `nil` for every day.
    public var day: Int?
    /// The days of the week; `nil` for every day. Must not be empty.
    public var weekdays: Set<Weekday>?
    /// The hour on a 24-hour clock, 0–23.
    public var hour: Int?
    /// The minute, 0–59.
    public var minute: Int?
    /// The second, 0–59.
    public var second: Int?

    /// Makes a match; give at least one field.
    ///
    /// ```swift
    /// // Every weekday at 09:00.
    /// CalendarMatch(weekdays: .mondayToFriday, hour: 9, minute: 0)
    /// ```
    public init(
        month: Int? = nil,
        day: Int? = nil,
        weekdays: Set<Weekday>? = nil,
        hour: Int? = nil,
        minute: Int? = nil,
        second: Int? = nil
    ) {
        self.month = month
        self.day = day
        self.weekdays = weekdays
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// Whether a date's fields match ``month``, ``day`` and ``weekdays``.
    ///
    /// - Parameter weekday: The date's day of the week, 1 = Sunday … 7 = Saturday.
    public func matchesDate(month: Int, day: Int, weekday: Int) -> Bool {
        if let wanted = self.month, wanted != month { return false }
        if let wanted = self.day, wanted != day { return false }
        if let weekdays, !weekdays.contains(where: { $0.rawValue == weekday }) { return false }
        return true
    }

    /// The earliest matching time of day at or after `secondOfDay` (seconds since midnight), as seconds since
    /// midnight; `nil` when no matching time is left in the day.
    ///
    /// Applies the rule for unset time fields described on the type.
    public func firstTimeOfDay(atOrAfter secondOfDay: Int) -> Int? {
        // An unset field is a wildcard when a finer field is set (it is coarser than the coarsest set field), and
        // 0 otherwise. The second is the finest field, so an unset second is always 0.
        let hours = allowedValues(hour, wildcard: 0...23, isWildcard: minute != nil || second != nil)
        let minutes = allowedValues(minute, wildcard: 0...59, isWildcard: hour == nil && second != nil)
        let seconds = allowedValues(second, wildcard: 0...59, isWildcard: false)
        let (startHour, startMinute, startSecond) = (secondOfDay / 3600, secondOfDay % 3600 / 60, secondOfDay % 60)
        for hourValue in hours where hourValue >= startHour {
            let minuteFloor = hourValue == startHour ? startMinute : 0
            for minuteValue in minutes where minuteValue >= minuteFloor {
                let secondFloor = hourValue == startHour && minuteValue == startMinute ? startSecond : 0
                if let secondValue = seconds.first(where: { $0 >= secondFloor }) {
                    return hourValue * 3600 + minuteValue * 60 + secondValue
                }
            }
        }
        return nil
    }

    /// Whether any time field is set.
    var hasTimeField: Bool { hour != nil || minute != nil || second != nil }

    /// Whether no field is set at all.
    var isEmpty: Bool { month == nil && day == nil && weekdays == nil && !hasTimeField }

    /// The values a time field takes: the set value, every value when it is a wildcard, or 0.
    private func allowedValues(_ value: Int?, wildcard: ClosedRange<Int>, isWildcard: Bool) -> ClosedRange<Int> {
        if let value { return value...value }
        return isWildcard ? wildcard : 0...0
    }
}
