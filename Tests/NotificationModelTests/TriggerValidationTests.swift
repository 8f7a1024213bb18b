import NotificationModel
import Testing

@Suite("Validation of triggers")
struct TriggerValidationTests {
    static func wallClock(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 9, _ minute: Int = 0, _ second: Int = 0)
        -> NotificationTrigger
    {
        .date(.wallClock(LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)))
    }

    static let validTriggers: [NotificationTrigger] = [
        wallClock(2024, 2, 29), wallClock(2025, 12, 31, 23, 59, 59), wallClock(2025, 1, 1, 0, 0, 0),
        .date(.instant(secondsSince1970: 0), repeat: .interval(.minute)),
        .timeInterval(seconds: 0.5), .timeInterval(seconds: 60, repeats: true),
        .calendar(CalendarMatch(second: 0), repeats: true), .calendar(CalendarMatch(month: 2, day: 29)),
        .calendar(CalendarMatch(weekdays: .weekend, hour: 23, minute: 59, second: 59), repeats: true),
    ]

    @Test("triggers that can fire pass", arguments: validTriggers)
    func accepts(trigger: NotificationTrigger) throws {
        try trigger.validate()
    }

    static let rejectedCases: [(trigger: NotificationTrigger, error: TriggerValidationError, advice: String)] = [
        (
            wallClock(2025, 13, 1), .monthOutOfRange(field: "trigger.fireDate.wallClock.month", value: 13),
            "use 1 (January) to 12 (December)"
        ),
        (
            wallClock(2025, 2, 29),
            .dayOutOfRange(field: "trigger.fireDate.wallClock.day", value: 29, month: 2, year: 2025),
            "February 2025 has 28 days; use 1 to 28"
        ),
        (
            wallClock(2025, 4, 31),
            .dayOutOfRange(field: "trigger.fireDate.wallClock.day", value: 31, month: 4, year: 2025),
            "April 2025 has 30 days"
        ),
        (
            wallClock(2025, 1, 0),
            .dayOutOfRange(field: "trigger.fireDate.wallClock.day", value: 0, month: 1, year: 2025),
            "use 1 to 31"
        ),
        (
            wallClock(2025, 1, 1, 24), .hourOutOfRange(field: "trigger.fireDate.wallClock.hour", value: 24),
            "use 0 to 23"
        ),
        (
            wallClock(2025, 1, 1, 9, 60), .minuteOutOfRange(field: "trigger.fireDate.wallClock.minute", value: 60),
            "use 0 to 59"
        ),
        (
            wallClock(2025, 1, 1, 9, 0, 60), .secondOutOfRange(field: "trigger.fireDate.wallClock.second", value: 60),
            "leap seconds"
        ),
        (wallClock(0, 1, 1), .yearOutOfRange(field: "trigger.fireDate.wallClock.year", value: 0), "1 to 9999"),
        (.date(.instant(secondsSince1970: .nan)), .nonFiniteSeconds(field: "trigger.fireDate.instant"), "finite"),
        (
            .date(.instant(secondsSince1970: 1e15)),
            .instantOutOfRange(field: "trigger.fireDate.instant", secondsSince1970: 1e15), "253402300799"
        ),
        (.timeInterval(seconds: 0), .nonPositiveInterval(field: "trigger.seconds", seconds: 0), "more than 0"),
        (.timeInterval(seconds: -5), .nonPositiveInterval(field: "trigger.seconds", seconds: -5), "more than 0"),
        (.timeInterval(seconds: .infinity), .nonFiniteSeconds(field: "trigger.seconds"), "finite"),
        (
            .timeInterval(seconds: 59, repeats: true),
            .repeatingIntervalTooShort(field: "trigger.seconds", seconds: 59, minimum: 60), "set repeats to false"
        ),
        (
            .timeInterval(seconds: 4e9), .intervalTooLong(field: "trigger.seconds", seconds: 4e9, limit: 3_155_760_000),
            "date trigger"
        ),
        (.calendar(CalendarMatch()), .emptyCalendarMatch(field: "trigger.match"), "set at least one"),
        (
            .calendar(CalendarMatch(weekdays: [], hour: 9)), .emptyWeekdays(field: "trigger.match.weekdays"),
            "list at least one day"
        ),
        (
            .calendar(CalendarMatch(month: 2, day: 30)),
            .dayNeverOccurs(field: "trigger.match.day", value: 30, month: 2),
            "use 1 to 29 (29 matches only in leap years)"
        ),
        (
            .calendar(CalendarMatch(month: 11, day: 31)),
            .dayNeverOccurs(field: "trigger.match.day", value: 31, month: 11),
            "November never has a day 31"
        ),
        (
            .calendar(CalendarMatch(day: 32)), .dayNeverOccurs(field: "trigger.match.day", value: 32, month: nil),
            "from 1 to 31"
        ),
        (.calendar(CalendarMatch(month: 0)), .monthOutOfRange(field: "trigger.match.month", value: 0), "1 (January)"),
        (.calendar(CalendarMatch(hour: -1)), .hourOutOfRange(field: "trigger.match.hour", value: -1), "0 to 23"),
    ]

    @Test("invalid triggers name the field and say what to change", arguments: rejectedCases)
    func rejects(trigger: NotificationTrigger, error expected: TriggerValidationError, advice: String) {
        #expect(throws: expected) { try trigger.validate() }
        #expect(expected.description.hasPrefix(expected.field), "\(expected.description)")
        #expect(expected.description.contains(advice), "\(expected.description)")
    }
}
