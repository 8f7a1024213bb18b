import NotificationModel
import Testing

@Suite("Calendar matches")
struct TriggerCalendarMatchTests {
    static func clock(_ hour: Int, _ minute: Int, _ second: Int) -> Int { hour * 3600 + minute * 60 + second }

    static let timeOfDayCases: [(match: CalendarMatch, from: Int, expected: Int?)] = [
        (CalendarMatch(hour: 9), clock(0, 0, 0), clock(9, 0, 0)),
        (CalendarMatch(hour: 9), clock(9, 0, 1), nil),
        (CalendarMatch(hour: 9, minute: 30), clock(9, 30, 0), clock(9, 30, 0)),
        (CalendarMatch(minute: 30), clock(10, 31, 0), clock(11, 30, 0)),
        (CalendarMatch(second: 10), clock(10, 40, 11), clock(10, 41, 10)),
        (CalendarMatch(hour: 9, second: 10), clock(9, 0, 11), nil),
        (CalendarMatch(minute: 5, second: 10), clock(23, 5, 11), nil),
        (CalendarMatch(weekdays: [.monday]), clock(0, 0, 0), clock(0, 0, 0)),
        (CalendarMatch(weekdays: [.monday]), clock(0, 0, 1), nil),
    ]

    @Test(
        "unset time fields coarser than the coarsest set one match anything; finer ones are zero",
        arguments: timeOfDayCases)
    func timeOfDay(match: CalendarMatch, from: Int, expected: Int?) {
        #expect(match.firstTimeOfDay(atOrAfter: from) == expected)
    }

    @Test("date fields match when set, and anything when unset")
    func dates() {
        let match = CalendarMatch(month: 3, weekdays: .mondayToFriday)
        #expect(match.matchesDate(month: 3, day: 31, weekday: 2))
        #expect(!match.matchesDate(month: 3, day: 30, weekday: 1), "a Sunday")
        #expect(!match.matchesDate(month: 4, day: 1, weekday: 3))
        #expect(CalendarMatch(hour: 1).matchesDate(month: 2, day: 29, weekday: 5))
    }
}
