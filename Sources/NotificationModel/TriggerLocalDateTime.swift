/// A date and time read off a wall clock, in no particular time zone: "30 March 2025, 09:00".
///
/// This is what a `UILocalNotification` with a `timeZone` means: the time is taken in the user's *current* zone,
/// whatever that is when the notification fires, so a 09:00 reminder still fires at 09:00 after the user travels.
/// The calendar is the proleptic Gregorian calendar; there are no leap seconds.
///
/// Encoded as the text `YYYY-MM-DDTHH:MM:SS` (ISO 8601 without a zone designator, such as `2025-03-30T09:00:00`).
/// The initializer does not validate: call ``validate(at:)``.
public struct LocalDateTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The year, 1–9999.
    public var year: Int
    /// The month, 1 (January) – 12 (December).
    public var month: Int
    /// The day of the month, 1 – the month's length.
    public var day: Int
    /// The hour on a 24-hour clock, 0–23.
    public var hour: Int
    /// The minute, 0–59.
    public var minute: Int
    /// The second, 0–59.
    public var second: Int

    /// Makes a wall-clock time; the fields are not checked until ``validate(at:)``.
    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// The wall-clock time that UTC shows `secondsSince1970InUTC` seconds after 1970-01-01T00:00:00Z.
    ///
    /// Together with ``secondsSince1970InUTC`` this turns wall-clock arithmetic into integer arithmetic: a zone's
    /// local time is `LocalDateTime(secondsSince1970InUTC: instant + offset)`.
    public init(secondsSince1970InUTC seconds: Int) {
        let (days, secondOfDay) = CivilCalendar.floorDivide(seconds, CivilCalendar.secondsPerDay)
        let date = CivilCalendar.date(dayNumber: days)
        self.init(
            year: date.year,
            month: date.month,
            day: date.day,
            hour: secondOfDay / 3600,
            minute: secondOfDay % 3600 / 60,
            second: secondOfDay % 60
        )
    }

    /// The seconds from 1970-01-01T00:00:00 to this time, both read on the same wall clock.
    ///
    /// This is the instant this time names in UTC; for another zone, subtract the zone's offset.
    public var secondsSince1970InUTC: Int {
        dayNumber * CivilCalendar.secondsPerDay + secondOfDay
    }

    /// The day of the week, 1 = Sunday … 7 = Saturday, as Foundation's `Calendar` numbers them.
    public var weekday: Int {
        CivilCalendar.weekday(dayNumber: dayNumber)
    }

    /// Whether `year` is a leap year in the Gregorian calendar.
    public static func isLeapYear(_ year: Int) -> Bool {
        CivilCalendar.isLeapYear(year)
    }

    /// The number of days of `month` (1–12) in `year`; 0 for a month outside 1–12.
    public static func daysInMonth(_ month: Int, year: Int) -> Int {
        CivilCalendar.daysInMonth(month, year: year)
    }

    /// This time moved by `count` repeat intervals on the wall clock.
    ///
    /// Months and years keep the day of the month where the target month has it, and otherwise take the target
    /// month's last day: 31 January plus one month is 28 (or 29) February, and 29 February plus one year is
    /// 28 February. Always count from the original time (`start.adding(.month, count: 2)`, not twice
    /// `adding(.month, count: 1)`), so that a series on the 31st returns to the 31st. Days and weeks add calendar
    /// days; minutes and hours add wall-clock time.
    public func adding(_ interval: RepeatRule.Interval, count: Int) -> LocalDateTime {
        switch interval {
        case .minute: return LocalDateTime(secondsSince1970InUTC: secondsSince1970InUTC + count * 60)
        case .hour: return LocalDateTime(secondsSince1970InUTC: secondsSince1970InUTC + count * 3600)
        case .day: return addingDays(count)
        case .week: return addingDays(count * 7)
        case .month: return addingMonths(count)
        case .year: return addingMonths(count * 12)
        }
    }

    /// This time `count` calendar days later (earlier when negative), at the same time of day.
    public func addingDays(_ count: Int) -> LocalDateTime {
        var result = self
        (result.year, result.month, result.day) = CivilCalendar.date(dayNumber: dayNumber + count)
        return result
    }

    /// The ISO 8601 text `YYYY-MM-DDTHH:MM:SS`.
    public var description: String {
        "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))T\(padded(hour, 2)):\(padded(minute, 2)):"
            + padded(second, 2)
    }

    /// Compares field by field, from the year down to the second.
    public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool {
        (lhs.year, lhs.month, lhs.day, lhs.hour, lhs.minute, lhs.second)
            < (rhs.year, rhs.month, rhs.day, rhs.hour, rhs.minute, rhs.second)
    }

    /// The day number of the date (days since 1970-01-01), with the day clamped into the month so that an invalid
    /// value still gives a nearby answer instead of trapping.
    var dayNumber: Int {
        let clampedMonth = min(max(month, 1), 12)
        let clampedDay = min(max(day, 1), CivilCalendar.daysInMonth(clampedMonth, year: year))
        return CivilCalendar.dayNumber(year: year, month: clampedMonth, day: clampedDay)
    }

    /// The seconds since midnight.
    var secondOfDay: Int {
        hour * 3600 + minute * 60 + second
    }

    private func addingMonths(_ count: Int) -> LocalDateTime {
        let (yearDelta, monthIndex) = CivilCalendar.floorDivide(month - 1 + count, 12)
        var result = self
        result.year = year + yearDelta
        result.month = monthIndex + 1
        result.day = min(day, CivilCalendar.daysInMonth(result.month, year: result.year))
        return result
    }
}

/// `value` in decimal with at least `width` digits, zero-padded; a minus sign goes first.
private func padded(_ value: Int, _ width: Int) -> String {
    let digits = String(value.magnitude)
    let zeros = String(repeating: "0", count: max(0, width - digits.count))
    return (value < 0 ? "-" : "") + zeros + digits
}
