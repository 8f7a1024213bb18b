import Foundation
import NotificationModel
import NotificationScheduling
import Testing

@testable import NotificationBridgeDaemon

/// Which focus mode is on: by hand, for a time, or on a schedule, and what turning one off does.
@Suite("Focus modes on and off")
struct FocusStateTests {
    static let berlin = FocusScheduleTests.berlin
    static func at(_ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0) -> Date {
        FocusScheduleTests.at(month, day, hour, minute)
    }

    /// "sleep" every night from 22:00 to 07:00, and "work", by hand only.
    static func state() throws -> FocusState {
        var state = FocusState()
        state.save(try FocusMode(name: "sleep", schedules: [try FocusScheduleTests.nights()]))
        state.save(try FocusMode(name: "work"))
        return state
    }

    @Test("a mode on for 1h is on for that hour, wins over a schedule, and ends by itself")
    func forAnHour() throws {
        var state = try Self.state()
        let now = Self.at(11, 27, 21, 30)
        try state.turnOn("work", until: now.addingTimeInterval(3600), now: now)
        #expect(state.active(at: now, in: Self.berlin)?.mode.name == "work")
        #expect(state.active(at: Self.at(11, 27, 22, 15), in: Self.berlin)?.cause == .manual, "it wins over sleep")
        #expect(state.nextChange(after: now, in: Self.berlin) == Self.at(11, 27, 22), "sleep's start comes first")
        let after = state.active(at: Self.at(11, 27, 22, 30), in: Self.berlin)
        #expect(after?.mode.name == "sleep", "the hour over, the schedule's mode is on")
        #expect(after?.cause == .scheduled)
        #expect(after?.until == Self.at(11, 28, 7))
    }

    @Test("a mode on until turned off stays on; off, nothing is on")
    func untilTurnedOff() throws {
        var state = try Self.state()
        let now = Self.at(11, 27, 9)
        try state.turnOn("work", until: nil, now: now)
        #expect(state.active(at: Self.at(11, 27, 17), in: Self.berlin)?.until == nil)
        state.turnOff(now: Self.at(11, 27, 17), in: Self.berlin)
        #expect(state.active(at: Self.at(11, 27, 17), in: Self.berlin) == nil)
    }

    @Test(
        "turned off while a schedule has it on, a mode stays off until that period ends, and comes back the next night")
    func offDuringSchedule() throws {
        var state = try Self.state()
        state.turnOff(now: Self.at(11, 27, 23), in: Self.berlin)
        #expect(state.active(at: Self.at(11, 28, 3), in: Self.berlin) == nil)
        #expect(state.nextChange(after: Self.at(11, 28, 3), in: Self.berlin) == Self.at(11, 28, 7))
        #expect(state.active(at: Self.at(11, 28, 22, 30), in: Self.berlin)?.mode.name == "sleep")
    }

    @Test("unknown modes and ends that have passed are refused, saying what to do")
    func refusals() throws {
        var state = try Self.state()
        let now = Self.at(11, 27, 12)
        #expect(
            FocusScheduleTests.message { try state.turnOn("gym", until: nil, now: now) }
                == "there is no focus mode 'gym'; the modes are 'sleep', 'work'")
        #expect(
            FocusScheduleTests.message { try state.turnOn("work", until: now.addingTimeInterval(-60), now: now) }
                .contains("has passed"))
        #expect(FocusScheduleTests.message { try FocusMode(name: "") }.contains("needs a name"))
        try state.remove("work")
        #expect(FocusScheduleTests.message { try state.remove("work") }.contains("the modes are 'sleep'"))
    }

    @Test("a mode removed while on by hand is no longer on")
    func removedWhileOn() throws {
        var state = try Self.state()
        let now = Self.at(11, 27, 12)
        try state.turnOn("work", until: nil, now: now)
        try state.remove("work")
        #expect(state.active(at: now, in: Self.berlin) == nil)
    }
}
