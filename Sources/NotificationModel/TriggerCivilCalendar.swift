/// Proleptic Gregorian arithmetic on plain integers: the calendar of ``LocalDateTime``.
///
/// Day numbers count days since 1970-01-01 (day 0), negative before it. The conversions are Howard Hinnant's
/// `days_from_civil` / `civil_from_days`, exact for every year the model accepts.
enum CivilCalendar {
    static let secondsPerDay = 86_400

    static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// The number of days in `month` (1–12) of `year`; 0 for a month outside 1–12.
    static func daysInMonth(_ month: Int, year: Int) -> Int {
        switch month {
        case 1, 3, 5, 7, 8, 10, 12: 31
        case 4, 6, 9, 11: 30
        case 2: isLeapYear(year) ? 29 : 28
        default: 0
        }
    }

    /// The most days `month` can have in any year (29 for February); 0 for a month outside 1–12.
    static func maxDaysInMonth(_ month: Int) -> Int {
        month == 2 ? 29 : daysInMonth(month, year: 1)
    }

    /// The day number of a valid date.
    static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let shiftedMonth = (month + 9) % 12  // March is 0
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a day number.
    static func date(dayNumber: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = dayNumber + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    /// The weekday of a day number, 1 = Sunday … 7 = Saturday (day 0, 1970-01-01, was a Thursday).
    static func weekday(dayNumber: Int) -> Int {
        ((dayNumber % 7 + 7) % 7 + 4) % 7 + 1
    }

    /// Floor division, so that instants before 1970 fall into the right day.
    static func floorDivide(_ value: Int, _ divisor: Int) -> (quotient: Int, remainder: Int) {
        let remainder = (value % divisor + divisor) % divisor
        return ((value - remainder) / divisor, remainder)
    }
}
