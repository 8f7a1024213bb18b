import NotificationModel
import Testing

@testable import NotificationBridgeDaemon

/// Schedules as people write them on the command line, over the bus and in the settings file.
@Suite("Focus schedules as written")
struct FocusScheduleWrittenTests {
    /// Written forms, the days and times they mean, and how the daemon lists them back.
    static let forms:
        [(written: String, days: Set<CalendarMatch.Weekday>, start: String, end: String, listed: String)] =
            [
                ("mon-fri 22:00-07:00", .mondayToFriday, "22:00", "07:00", "mon-fri 22:00-07:00"),
                (
                    "every-day 13:00-14:00", Set(CalendarMatch.Weekday.allCases), "13:00", "14:00",
                    "every-day 13:00-14:00"
                ),
                ("sat,sun 23:30-09:00", .weekend, "23:30", "09:00", "sat,sun 23:30-09:00"),
                ("Friday,saturday 0:00-6:00", [.friday, .saturday], "00:00", "06:00", "fri,sat 00:00-06:00"),
                (
                    "fri-mon 20:00-08:00", [.friday, .saturday, .sunday, .monday], "20:00", "08:00",
                    "fri-mon 20:00-08:00"
                ),
                (
                    "sun-thu 22:00-07:00", [.sunday, .monday, .tuesday, .wednesday, .thursday], "22:00", "07:00",
                    "sun-thu 22:00-07:00"
                ),
                (
                    "mon,wed,sat,sun 10:00-11:00", [.monday, .wednesday, .saturday, .sunday], "10:00", "11:00",
                    "wed,sat-mon 10:00-11:00"
                ),
                (
                    "mon,wed-fri 09:00-09:00", [.monday, .wednesday, .thursday, .friday], "09:00", "09:00",
                    "mon,wed-fri 09:00-09:00"
                ),
                ("sun 22:00-07:00", [.sunday], "22:00", "07:00", "sun 22:00-07:00"),
            ]

    @Test("a written schedule reads as the days and times it names, and is listed back in one form", arguments: forms)
    func read(form: (String, Set<CalendarMatch.Weekday>, String, String, String)) throws {
        let (written, days, start, end, listed) = form
        let schedule = try FocusSchedule(written: written)
        #expect(schedule.days == days, "\(written)")
        #expect(schedule.start.description == start && schedule.end.description == end, "\(written)")
        #expect(schedule.written == listed)
        #expect(try FocusSchedule(written: schedule.written) == schedule, "\(listed) reads back as itself")
    }

    @Test(
        "a mistake is refused, naming the part that is wrong and how to write it",
        arguments: [
            ("22:00-07:00", "DAYS HH:MM-HH:MM"), ("mon-fri 22:00", "DAYS HH:MM-HH:MM"),
            ("mon-fri 22:00 07:00", "DAYS HH:MM-HH:MM"), ("weekdays 22:00-07:00", "'weekdays' is not a day"),
            ("mon-fri-sat 22:00-07:00", "not a day or a range"), ("mon,,tue 22:00-07:00", "'' is not a day"),
            ("mon 25:00-07:00", "HH:MM on a 24-hour clock"), ("mon 22:00-7", "HH:MM on a 24-hour clock"),
        ])
    func mistakes(written: String, message: String) {
        let said = FocusScheduleTests.message { try FocusSchedule(written: written) }
        #expect(said.contains(message), "\(written): \(said)")
    }
}
