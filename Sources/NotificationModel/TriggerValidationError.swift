/// Why a trigger was rejected.
///
/// Every case carries the path of the offending field (``field``), such as `trigger.fireDate.wallClock.month` or
/// `trigger.match.weekdays`, written with the Swift names. ``description`` says what was wrong and what to change;
/// it is meant to be shown to the user as it is (the daemon returns it as the D-Bus error message).
public enum TriggerValidationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A year outside 1–9999.
    case yearOutOfRange(field: String, value: Int)
    /// A month outside 1–12.
    case monthOutOfRange(field: String, value: Int)
    /// A day that the month of that year does not have (such as 30 February, or 29 February 2025).
    case dayOutOfRange(field: String, value: Int, month: Int, year: Int)
    /// A calendar match on a day that never occurs: outside 1–31, or beyond the longest length of the month given
    /// (such as day 30 of February, or day 31 of April).
    case dayNeverOccurs(field: String, value: Int, month: Int?)
    /// An hour outside 0–23.
    case hourOutOfRange(field: String, value: Int)
    /// A minute outside 0–59.
    case minuteOutOfRange(field: String, value: Int)
    /// A second outside 0–59.
    case secondOutOfRange(field: String, value: Int)
    /// A calendar match whose weekday set is empty, so it would never fire.
    case emptyWeekdays(field: String)
    /// A calendar match with no field set.
    case emptyCalendarMatch(field: String)
    /// A number of seconds that is NaN or infinite.
    case nonFiniteSeconds(field: String)
    /// An instant before year 1 or after year 9999.
    case instantOutOfRange(field: String, secondsSince1970: Double)
    /// A time interval of zero or fewer seconds.
    case nonPositiveInterval(field: String, seconds: Double)
    /// A time interval longer than ``NotificationTrigger/maximumInterval``.
    case intervalTooLong(field: String, seconds: Double, limit: Double)
    /// A repeating time interval shorter than ``NotificationTrigger/minimumRepeatingInterval``.
    case repeatingIntervalTooShort(field: String, seconds: Double, minimum: Double)

    /// The path of the field that is wrong, such as `trigger.match.hour`.
    public var field: String {
        switch self {
        case .yearOutOfRange(let field, _), .monthOutOfRange(let field, _), .dayOutOfRange(let field, _, _, _),
            .dayNeverOccurs(let field, _, _), .hourOutOfRange(let field, _), .minuteOutOfRange(let field, _),
            .secondOutOfRange(let field, _), .emptyWeekdays(let field), .emptyCalendarMatch(let field),
            .nonFiniteSeconds(let field), .instantOutOfRange(let field, _), .nonPositiveInterval(let field, _),
            .intervalTooLong(let field, _, _), .repeatingIntervalTooShort(let field, _, _):
            field
        }
    }

    /// What was wrong, in which field, and what to change.
    public var description: String {
        switch self {
        case .yearOutOfRange(let field, let value):
            "\(field) is \(value); use a year from 1 to 9999"
        case .monthOutOfRange(let field, let value):
            "\(field) is \(value); use 1 (January) to 12 (December)"
        case .dayOutOfRange(let field, let value, let month, let year):
            "\(field) is \(value), but \(monthName(month)) \(year) has "
                + "\(LocalDateTime.daysInMonth(month, year: year)) days; use 1 to "
                + "\(LocalDateTime.daysInMonth(month, year: year))"
        case .dayNeverOccurs(let field, let value, let month?):
            "\(field) is \(value), but \(monthName(month)) never has a day \(value); use 1 to "
                + "\(CivilCalendar.maxDaysInMonth(month))"
                + (month == 2 ? " (29 matches only in leap years)" : "")
                + ", or a date trigger with a monthly or yearly repeat for \"the last day\""
        case .dayNeverOccurs(let field, let value, nil):
            "\(field) is \(value); use a day of the month from 1 to 31"
        case .hourOutOfRange(let field, let value):
            "\(field) is \(value); use 0 to 23 (a 24-hour clock)"
        case .minuteOutOfRange(let field, let value):
            "\(field) is \(value); use 0 to 59"
        case .secondOutOfRange(let field, let value):
            "\(field) is \(value); use 0 to 59 (leap seconds are not supported)"
        case .emptyWeekdays(let field):
            "\(field) is an empty set, so the trigger would never fire; list at least one day, "
                + "or leave it unset (nil) for every day of the week"
        case .emptyCalendarMatch(let field):
            "\(field) has no field set; set at least one of month, day, weekdays, hour, minute, second "
                + "(for example hour 9 and minute 0 for 09:00)"
        case .nonFiniteSeconds(let field):
            "\(field) is NaN or infinite; use a finite number of seconds"
        case .instantOutOfRange(let field, let seconds):
            "\(field) is \(seconds) seconds since 1970, outside the years 1–9999; use a number from "
                + "\(TriggerRanges.earliestInstant) to \(TriggerRanges.latestInstant)"
        case .nonPositiveInterval(let field, let seconds):
            "\(field) is \(seconds); use a time interval of more than 0 seconds"
        case .intervalTooLong(let field, let seconds, let limit):
            "\(field) is \(seconds) seconds; use at most \(limit) (100 years), or a date trigger for a far date"
        case .repeatingIntervalTooShort(let field, let seconds, let minimum):
            "\(field) is \(seconds) seconds, too short for a repeating trigger; use \(minimum) seconds or more, "
                + "or set repeats to false"
        }
    }
}

/// The English name of a month 1–12, or "month N" for another number.
private func monthName(_ month: Int) -> String {
    let names = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]
    return (1...12).contains(month) ? names[month - 1] : "month \(month)"
}
