import DBusTestSupport
import Foundation
import NotificationModel
import Testing

@testable import NotificationScheduling

/// Delays count elapsed time and fire dates the wall clock, whatever is done to the wall clock meanwhile.
@Suite("The scheduler when the wall clock is set")
struct ClockStepTests {
    typealias Harness = SchedulerTests.Harness

    /// Fifty notifications due 2 to 10 seconds from now, by delay.
    private static func scheduleFifty(_ harness: Harness) async throws {
        for index in 0..<50 {
            try await harness.scheduler.schedule(
                id: "in-\(index)", trigger: .timeInterval(seconds: 2 + Double(index % 9)), payload: "")
        }
        _ = try await harness.armedDeadline()
    }

    @Test("the wall clock set back an hour: delays still fire after their seconds, not an hour later")
    func stepBack() async throws {
        let harness = Harness()
        try await harness.running {
            try await Self.scheduleFifty(harness)
            harness.clock.set(to: harness.clock.now.addingTimeInterval(-3600))
            await harness.scheduler.clockStepped()
            harness.clock.advance(by: 10)
            try await harness.recorder.waitForFirings(50)
            #expect(harness.recorder.firings.count == 50)
        }
    }

    @Test("the wall clock set forward an hour: delays do not fire early; a fire date the step passed fires at once")
    func stepForward() async throws {
        let harness = Harness()
        try await harness.running {
            let start = harness.clock.now
            try await Self.scheduleFifty(harness)
            try await harness.scheduler.schedule(
                id: "at",
                trigger: .date(.instant(secondsSince1970: start.addingTimeInterval(1800).timeIntervalSince1970)),
                payload: "")
            harness.clock.set(to: start.addingTimeInterval(3600))
            await harness.scheduler.clockStepped()
            try await harness.recorder.waitForFirings(1)
            #expect(harness.recorder.ids == ["at"], "only the fire date the step passed")

            harness.clock.advance(by: 1)
            #expect(harness.recorder.firings.count == 1, "one second later no delay of 2 s or more is due")
            harness.clock.advance(by: 9)
            try await harness.recorder.waitForFirings(51)
            #expect(harness.recorder.firings.count == 51)
        }
    }
}
