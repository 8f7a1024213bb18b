import NotificationModel
import Testing

@Suite("Wall-clock date arithmetic")
struct TriggerLocalDateTimeTests {
    static func time(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 9, _ minute: Int = 0) -> LocalDateTime {
        LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute)
    }

    @Test("a monthly series on the 31st takes the last day of shorter months and returns to the 31st")
    func monthEnds() {
        let start = Self.time(2025, 1, 31)
        let days = (0...12).map { start.adding(.month, count: $0) }.map { "\($0.month)-\($0.day)" }
        #expect(
            days == [
                "1-31", "2-28", "3-31", "4-30", "5-31", "6-30", "7-31", "8-31", "9-30", "10-31", "11-30",
                "12-31", "1-31",
            ])
        #expect(start.adding(.month, count: 13) == Self.time(2026, 2, 28))
        #expect(Self.time(2024, 1, 31).adding(.month, count: 1) == Self.time(2024, 2, 29), "leap February")
        #expect(Self.time(2025, 3, 31).adding(.month, count: -1) == Self.time(2025, 2, 28), "backwards too")
    }

    @Test("a yearly series on 29 February falls on 28 February in common years")
    func leapDays() {
        let start = Self.time(2024, 2, 29)
        let dates = (0...4).map { start.adding(.year, count: $0) }
        #expect(
            dates == [
                Self.time(2024, 2, 29), Self.time(2025, 2, 28), Self.time(2026, 2, 28), Self.time(2027, 2, 28),
                Self.time(2028, 2, 29),
            ])
        #expect(Self.time(2100, 2, 28).adding(.day, count: 1) == Self.time(2100, 3, 1), "2100 is not a leap year")
        #expect(Self.time(2000, 2, 28).adding(.day, count: 1) == Self.time(2000, 2, 29), "2000 is one")
    }

    @Test("days and weeks add calendar days; minutes and hours add clock time")
    func shortIntervals() {
        let start = Self.time(2025, 12, 31, 23, 30)
        #expect(start.adding(.day, count: 1) == Self.time(2026, 1, 1, 23, 30))
        #expect(start.adding(.week, count: 9) == Self.time(2026, 3, 4, 23, 30))
        #expect(start.adding(.hour, count: 1) == Self.time(2026, 1, 1, 0, 30))
        #expect(start.adding(.minute, count: -31) == Self.time(2025, 12, 31, 22, 59))
    }

    @Test("weekdays are numbered as Foundation numbers them, 1 = Sunday")
    func weekdays() {
        #expect(Self.time(1970, 1, 1).weekday == 5, "a Thursday")
        #expect(Self.time(2025, 3, 30).weekday == 1, "a Sunday")
        #expect(Self.time(1969, 12, 27).weekday == 7, "a Saturday, before 1970")
        #expect(Self.time(2000, 1, 3).weekday == CalendarMatch.Weekday.monday.rawValue)
    }

    @Test("seconds since 1970 convert both ways, before and after 1970")
    func secondsRoundTrip() {
        for seconds in [0, 1, -1, 951_782_400, -62_135_596_800, 253_402_300_799, 1_743_296_400] {
            #expect(LocalDateTime(secondsSince1970InUTC: seconds).secondsSince1970InUTC == seconds)
        }
        #expect(
            LocalDateTime(secondsSince1970InUTC: -1)
                == LocalDateTime(
                    year: 1969, month: 12, day: 31, hour: 23,
                    minute: 59, second: 59))
        #expect(LocalDateTime(secondsSince1970InUTC: 951_782_400) == Self.time(2000, 2, 29, 0))
    }

    @Test("the text form is fixed-width ISO 8601 and parses back")
    func text() {
        let value = LocalDateTime(year: 7, month: 3, day: 9, hour: 4, minute: 5, second: 6)
        #expect(value.description == "0007-03-09T04:05:06")
        #expect(LocalDateTime(parsing: value.description) == value)
        #expect(LocalDateTime(parsing: "2025-3-9T04:05:06") == nil)
        #expect(LocalDateTime(parsing: "2025-03-09T04:05:06+01:00") == nil)
    }

    @Test("comparison goes from the year down to the second")
    func ordering() {
        #expect(Self.time(2025, 1, 31, 23, 59) < Self.time(2025, 2, 1, 0, 0))
        #expect(!(Self.time(2025, 2, 1) < Self.time(2025, 2, 1)))
    }
}
