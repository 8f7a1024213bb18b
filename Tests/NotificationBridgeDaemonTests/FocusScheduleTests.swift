import Foundation
import NotificationModel
import NotificationScheduling
import Testing

@testable import NotificationBridgeDaemon

/// Focus schedules read in the user's zone: periods that cross midnight, nights that lose or gain an hour, a start in
/// the gap, and a wall clock that steps. No clock runs: each case asks about given instants.
@Suite("Focus schedules")
struct FocusScheduleTests {
    static let berlin = TriggerEvaluator(timeZone: TimeZoneRules(identifier: "Europe/Berlin")!)

    /// The instant Berlin's clock shows the given time.
    static func at(_ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0, year: Int = 2026) -> Date {
        berlin.date(for: LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute))
    }

    static func nights(_ days: Set<CalendarMatch.Weekday> = Set(CalendarMatch.Weekday.allCases)) throws
        -> FocusSchedule
    {
        try FocusSchedule(
            days: days, start: FocusSchedule.TimeOfDay("22:00"), end: FocusSchedule.TimeOfDay("07:00"))
    }

    /// Instants on and around a night from Friday 27 November 2026, 22:00 to Saturday 07:00: whether the mode is on.
    static let night: [(String, Date, on: Bool)] = [
        ("Friday 21:59", at(11, 27, 21, 59), false), ("Friday 22:00", at(11, 27, 22), true),
        ("Friday 23:30", at(11, 27, 23, 30), true), ("Saturday 00:00", at(11, 28, 0), true),
        ("Saturday 06:59", at(11, 28, 6, 59), true), ("Saturday 07:00", at(11, 28, 7), false),
        ("Saturday 12:00", at(11, 28, 12), false),
    ]

    @Test("a period from 22:00 to 07:00 crosses midnight: on from its start, off at its end", arguments: night.indices)
    func acrossMidnight(row: Int) throws {
        let (when, date, on) = Self.night[row]
        let period = try Self.nights().period(containing: date, in: Self.berlin)
        #expect((period != nil) == on, "\(when)")
        if let period {
            #expect(period == Self.at(11, 27, 22)..<Self.at(11, 28, 7), "\(when)")
        }
    }

    @Test("only the days named start a period; the Friday night's runs into Saturday, no night starts on Saturday")
    func weekdays() throws {
        let schedule = try Self.nights([.monday, .tuesday, .wednesday, .thursday, .friday])
        #expect(schedule.period(containing: Self.at(11, 28, 6), in: Self.berlin) != nil, "Friday's night")
        #expect(schedule.period(containing: Self.at(11, 28, 23), in: Self.berlin) == nil, "Saturday's night")
        #expect(schedule.period(containing: Self.at(11, 29, 23), in: Self.berlin) == nil, "Sunday's night")
        #expect(schedule.nextChange(after: Self.at(11, 28, 12), in: Self.berlin) == Self.at(11, 30, 22), "Monday 22:00")
    }

    @Test("the night the clocks go forward is an hour shorter, the night they go back an hour longer")
    func daylightSaving() throws {
        let schedule = try Self.nights()
        // 28 March 2026: 22:00 CET is 21:00 UTC; 07:00 CEST on the 29th is 05:00 UTC: eight hours.
        let spring = try #require(schedule.period(containing: Self.at(3, 29, 4), in: Self.berlin))
        #expect(spring == Date(timeIntervalSince1970: 1_774_731_600)..<Date(timeIntervalSince1970: 1_774_760_400))
        // 24 October 2026: 22:00 CEST is 20:00 UTC; 07:00 CET on the 25th is 06:00 UTC: ten hours.
        let autumn = try #require(schedule.period(containing: Self.at(10, 25, 1), in: Self.berlin))
        #expect(autumn == Date(timeIntervalSince1970: 1_792_872_000)..<Date(timeIntervalSince1970: 1_792_908_000))
    }

    @Test("a start in the skipped hour begins at the first instant after the gap")
    func startInTheGap() throws {
        let schedule = try FocusSchedule(
            days: [.sunday], start: FocusSchedule.TimeOfDay("02:30"), end: FocusSchedule.TimeOfDay("04:00"))
        let gap = Date(timeIntervalSince1970: 1_774_746_000)  // 29 March 2026, 03:00 CEST
        #expect(schedule.nextChange(after: Self.at(3, 28, 12), in: Self.berlin) == gap)
        #expect(schedule.period(containing: gap, in: Self.berlin)?.upperBound == Self.at(3, 29, 4))
    }

    @Test("a step of the wall clock is only another instant asked about: a step past the end finds the mode off")
    func clockStep() throws {
        var state = FocusState()
        state.save(try FocusMode(name: "sleep", schedules: [try Self.nights()]))
        let before = Self.at(11, 27, 23)
        #expect(state.active(at: before, in: Self.berlin)?.until == Self.at(11, 28, 7))
        // The clock is set forward a day and a half; then back to before the night began.
        let forward = Self.at(11, 29, 10)
        #expect(state.active(at: forward, in: Self.berlin) == nil)
        #expect(state.nextChange(after: forward, in: Self.berlin) == Self.at(11, 29, 22))
        let back = Self.at(11, 27, 20)
        #expect(state.active(at: back, in: Self.berlin) == nil)
        #expect(state.nextChange(after: back, in: Self.berlin) == Self.at(11, 27, 22))
    }

    @Test(
        "times of day are HH:MM on a 24-hour clock; anything else is refused, saying how to write one",
        arguments: ["24:00", "7", "07:5", "noon", "-1:00", "07:60"])
    func badTimes(text: String) {
        let message = Self.message { try FocusSchedule.TimeOfDay(text) }
        #expect(message.contains("HH:MM on a 24-hour clock"), "\(message)")
    }

    @Test("a schedule of no day is refused")
    func noDays() {
        let message = Self.message {
            try FocusSchedule(days: [], start: FocusSchedule.TimeOfDay("22:00"), end: FocusSchedule.TimeOfDay("07:00"))
        }
        #expect(message.contains("at least one day"), "\(message)")
    }

    /// What a failing step says; "no error" when it succeeds.
    static func message<T>(_ body: () throws -> T) -> String {
        do {
            _ = try body()
            return "no error"
        } catch let error as FocusError {
            return error.description
        } catch {
            return "another error: \(error)"
        }
    }
}
