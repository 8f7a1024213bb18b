import DBusTestSupport
import Foundation
import NotificationModel
import Synchronization
import Testing

@testable import NotificationScheduling

@Suite("The scheduler under a manual clock")
struct SchedulerTests {
    typealias F = SchedulingFixtures

    /// A scheduler on a manual clock at `start`, in a zone the test can change.
    struct Harness {
        let clock: ManualSchedulerClock
        let zone: ZoneSetting
        let recorder: FiringRecorder
        let scheduler: Scheduler<String>

        init(start: Date = F.instant("2025-06-02T08:00:00+02:00"), zone: TimeZoneRules = F.berlin) {
            let clock = ManualSchedulerClock(now: start)
            let setting = ZoneSetting(zone)
            let recorder = FiringRecorder()
            scheduler = Scheduler(clock: clock, timeZone: { setting.zone }, fire: recorder.fire)
            self.clock = clock
            self.zone = setting
            self.recorder = recorder
        }

        /// Runs `body` while the scheduler runs (``Scheduler/run()``) in a child task, which ends with `body`.
        func running(_ body: () async throws -> Void) async throws {
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { [scheduler] in await scheduler.run() }
                defer { group.cancelAll() }
                try await body()
            }
        }

        /// Waits until the scheduler sleeps on the clock, once, until its earliest pending fire date, and returns that
        /// deadline.
        func armedDeadline() async throws -> Date? {
            let earliest = await scheduler.pending().first?.nextFireDate
            try await withTimeout(waitingFor: "one sleep until \(String(describing: earliest))") {
                [clock] in
                await clock.waitForSleepDeadlines { $0.count == 1 && $0.first == earliest }
            }
            return clock.sleepDeadlines.first
        }

        /// Waits until nothing sleeps on the clock.
        func noTimer() async throws {
            try await withTimeout(waitingFor: "no sleep on the clock") { [clock] in
                await clock.waitForSleepDeadlines { $0.isEmpty }
            }
        }
    }

    /// The system zone as the test sets it.
    final class ZoneSetting: Sendable {
        private let state: Mutex<TimeZoneRules>
        init(_ zone: TimeZoneRules) { state = Mutex(zone) }
        var zone: TimeZoneRules { state.withLock { $0 } }
        func set(_ zone: TimeZoneRules) { state.withLock { $0 = zone } }
    }

    @Test("notifications fire in fire-date order, with one timer sleeping until the earliest")
    func firesInOrder() async throws {
        let harness = Harness()
        try await harness.running {
            let start = harness.clock.now
            for (id, seconds) in [("c", 30.0), ("a", 10.0), ("b", 20.0)] {
                try await harness.scheduler.schedule(id: id, trigger: .timeInterval(seconds: seconds), payload: id)
            }
            #expect(try await harness.armedDeadline() == start.addingTimeInterval(10))

            harness.clock.advance(by: 25)
            try await harness.recorder.waitForFirings(2)
            #expect(harness.recorder.ids == ["a", "b"])
            #expect(
                harness.recorder.firings.map(\.occurrence) == [
                    start.addingTimeInterval(10), start.addingTimeInterval(20),
                ])
            #expect(harness.recorder.firings.allSatisfy { $0.nextFireDate == nil })
            #expect(try await harness.armedDeadline() == start.addingTimeInterval(30))
            #expect(await harness.scheduler.pending().map(\.notification.id) == ["c"])

            harness.clock.advance(by: 5)
            try await harness.recorder.waitForFirings(3)
            #expect(harness.recorder.ids == ["a", "b", "c"])
            #expect(await harness.scheduler.pending().isEmpty)
        }
    }

    @Test("with nothing due the scheduler sleeps, and with nothing scheduled no timer exists")
    func sleepsWhenIdle() async throws {
        let harness = Harness()
        try await harness.running {
            let start = harness.clock.now
            try await harness.scheduler.schedule(id: "later", trigger: .timeInterval(seconds: 3600), payload: "p")
            #expect(try await harness.armedDeadline() == start.addingTimeInterval(3600))
            let sleeps = harness.clock.sleepCount

            harness.clock.advance(by: 1800)
            #expect(harness.clock.sleepDeadlines == [start.addingTimeInterval(3600)], "the timer did not wake")
            #expect(harness.clock.sleepCount == sleeps, "no polling: no new sleep")
            #expect(harness.recorder.firings.isEmpty)

            // Scheduling something later does not re-arm either.
            try await harness.scheduler.schedule(id: "even-later", trigger: .timeInterval(seconds: 7200), payload: "p")
            #expect(harness.clock.sleepCount == sleeps)

            await harness.scheduler.withdrawAll()
            try await harness.noTimer()
        }
    }

    @Test("withdrawing the earliest re-arms for the next; withdrawAll(appName:) leaves other apps")
    func withdraw() async throws {
        let harness = Harness()
        try await harness.running {
            let start = harness.clock.now
            try await harness.scheduler.schedule(
                id: "m1", appName: "Mail", trigger: .timeInterval(seconds: 10), payload: "")
            try await harness.scheduler.schedule(
                id: "c1", appName: "Chat", trigger: .timeInterval(seconds: 20), payload: "")
            try await harness.scheduler.schedule(
                id: "m2", appName: "Mail", trigger: .timeInterval(seconds: 30), payload: "")
            #expect(try await harness.armedDeadline() == start.addingTimeInterval(10))

            #expect(await harness.scheduler.withdraw(id: "m1")?.id == "m1")
            #expect(await harness.scheduler.withdraw(id: "m1") == nil)
            #expect(try await harness.armedDeadline() == start.addingTimeInterval(20))

            #expect(await harness.scheduler.withdrawAll(appName: "Mail").map(\.id) == ["m2"])
            #expect(await harness.scheduler.pending().map(\.notification.id) == ["c1"])
            harness.clock.advance(by: 60)
            try await harness.recorder.waitForFirings(1)
            #expect(harness.recorder.ids == ["c1"])
        }
    }

    @Test("a repeating notification fires every period and once after a long gap, then continues after now")
    func repeating() async throws {
        let harness = Harness()
        try await harness.running {
            let daily = NotificationTrigger.date(.wallClock(F.wallClock(2025, 6, 2, 9)), repeat: .interval(.day))
            let first = try await harness.scheduler.schedule(id: "daily", trigger: daily, payload: "coffee")
            #expect(first == F.instant("2025-06-02T09:00:00+02:00"))

            harness.clock.set(to: F.instant("2025-06-02T09:00:00+02:00"))
            try await harness.recorder.waitForFirings(1)
            #expect(try await harness.armedDeadline() == F.instant("2025-06-03T09:00:00+02:00"))

            // The timer's sleep is measured in elapsed time; a jump of days wakes it once.
            harness.clock.set(to: F.instant("2025-06-06T12:00:00+02:00"))
            try await harness.recorder.waitForFirings(2)
            #expect(try await harness.armedDeadline() == F.instant("2025-06-07T09:00:00+02:00"))
            let late = harness.recorder.firings[1]
            #expect(late.occurrence == F.instant("2025-06-03T09:00:00+02:00"))
            #expect(late.firedAt == F.instant("2025-06-06T12:00:00+02:00"))
            #expect(late.notification.lastFiredAt == late.firedAt)
            #expect(late.nextFireDate == F.instant("2025-06-07T09:00:00+02:00"))
            #expect(harness.recorder.firings.count == 2, "delivered once, not once per missed day")
        }
    }

    @Test("a date that has already passed fires as soon as it is scheduled")
    func pastDate() async throws {
        let harness = Harness()
        try await harness.running {
            let past = NotificationTrigger.date(
                .instant(secondsSince1970: harness.clock.now.timeIntervalSince1970 - 60))
            let first = try await harness.scheduler.schedule(id: "late", trigger: past, payload: "")
            #expect(first == harness.clock.now.addingTimeInterval(-60))
            #expect(harness.recorder.ids == ["late"], "delivered before schedule returned")
            #expect(await harness.scheduler.pending().isEmpty)
            #expect(harness.clock.sleepDeadlines.isEmpty)
        }
    }

    @Test("an invalid trigger is rejected and nothing is scheduled")
    func invalid() async throws {
        let harness = Harness()
        try await harness.running {
            await #expect(
                throws: TriggerValidationError.repeatingIntervalTooShort(
                    field: "trigger.seconds", seconds: 5,
                    minimum: 60)
            ) {
                try await harness.scheduler.schedule(
                    id: "x", trigger: .timeInterval(seconds: 5, repeats: true), payload: "")
            }
            #expect(await harness.scheduler.pending().isEmpty)
        }
    }

    @Test("a zone change moves wall-clock notifications and leaves absolute ones")
    func zoneChangeMovesWallClock() async throws {
        let harness = Harness(start: F.instant("2025-06-01T06:00:00+02:00"))
        try await harness.running {
            let nine = NotificationTrigger.date(.wallClock(F.wallClock(2025, 6, 1, 9)))
            let absolute = NotificationTrigger.date(
                .instant(
                    secondsSince1970: F.instant("2025-06-01T09:00:00+02:00")
                        .timeIntervalSince1970))
            try await harness.scheduler.schedule(id: "floating", trigger: nine, payload: "")
            try await harness.scheduler.schedule(id: "absolute", trigger: absolute, payload: "")
            #expect(try await harness.armedDeadline() == F.instant("2025-06-01T09:00:00+02:00"))

            harness.zone.set(F.newYork)
            await harness.scheduler.timeZoneChanged()
            let pending = await harness.scheduler.pending()
            #expect(pending.map(\.notification.id) == ["absolute", "floating"])
            #expect(
                pending.map(\.nextFireDate) == [
                    F.instant("2025-06-01T09:00:00+02:00"),
                    F.instant("2025-06-01T09:00:00-04:00"),
                ])
            #expect(harness.recorder.firings.isEmpty)
        }
    }

    @Test("after a zone change, a wall-clock time already passed in the new zone fires at once, and only once")
    func zoneChangeIntoThePast() async throws {
        // 08:00 in New York is 14:00 in Berlin: Berlin's 09:00 has passed.
        let harness = Harness(start: F.instant("2025-06-02T08:00:00-04:00"), zone: F.newYork)
        try await harness.running {
            let daily = NotificationTrigger.calendar(CalendarMatch(hour: 9, minute: 0), repeats: true)
            try await harness.scheduler.schedule(id: "standup", trigger: daily, payload: "")
            #expect(try await harness.armedDeadline() == F.instant("2025-06-02T09:00:00-04:00"))

            harness.zone.set(F.berlin)
            await harness.scheduler.timeZoneChanged()
            #expect(harness.recorder.ids == ["standup"])
            #expect(harness.recorder.firings.first?.occurrence == F.instant("2025-06-02T09:00:00+02:00"))
            #expect(try await harness.armedDeadline() == F.instant("2025-06-03T09:00:00+02:00"))

            // Flying back west: 09:00 of the same day comes round again in New York, but it has been delivered.
            harness.clock.set(to: F.instant("2025-06-03T10:00:00+02:00"))
            try await harness.recorder.waitForFirings(2)
            harness.zone.set(F.newYork)
            await harness.scheduler.timeZoneChanged()
            #expect(
                await harness.scheduler.pending().first?.nextFireDate == F.instant("2025-06-04T09:00:00-04:00"),
                "not 09:00 on 3 June in New York: that day's occurrence was delivered in Berlin")
            #expect(harness.recorder.firings.count == 2)
        }
    }

    @Test("restoring after downtime delivers each missed notification exactly once")
    func restoreAfterDowntime() async throws {
        let harness = Harness(start: F.instant("2025-06-10T12:00:00+02:00"))
        try await harness.running {
            let saved: [ScheduledNotification<String>] = [
                ScheduledNotification(
                    id: "once", trigger: .date(.wallClock(F.wallClock(2025, 6, 6, 9))), payload: "",
                    scheduledAt: F.instant("2025-06-01T00:00:00Z"), timeZoneIdentifier: "Europe/Berlin"),
                ScheduledNotification(
                    id: "daily",
                    trigger: .date(
                        .wallClock(F.wallClock(2025, 6, 1, 9)),
                        repeat: .interval(.day)), payload: "", scheduledAt: F.instant("2025-06-01T00:00:00Z"),
                    lastFiredAt: F.instant("2025-06-04T09:00:00+02:00"), timeZoneIdentifier: "Europe/Berlin"),
                ScheduledNotification(
                    id: "future", trigger: .timeInterval(seconds: 30 * 86_400), payload: "",
                    scheduledAt: F.instant("2025-06-01T00:00:00Z")),
                ScheduledNotification(
                    id: "done", trigger: .date(.wallClock(F.wallClock(2025, 6, 2, 9))), payload: "",
                    scheduledAt: F.instant("2025-06-01T00:00:00Z"),
                    lastFiredAt: F.instant("2025-06-02T09:00:00+02:00")),
                ScheduledNotification(
                    id: "broken", trigger: .calendar(CalendarMatch()), payload: "",
                    scheduledAt: F.instant("2025-06-01T00:00:00Z")),
            ]
            let report = await harness.scheduler.restore(saved)
            #expect(report.finished.map(\.id) == ["done"])
            #expect(report.rejected.map(\.notification.id) == ["broken"])
            #expect(report.rejected.first?.error == .emptyCalendarMatch(field: "trigger.match"))

            #expect(harness.recorder.ids == ["daily", "once"], "earliest missed occurrence first, each once")
            #expect(
                harness.recorder.firings.map(\.occurrence) == [
                    F.instant("2025-06-05T09:00:00+02:00"),
                    F.instant("2025-06-06T09:00:00+02:00"),
                ])
            let pending = await harness.scheduler.pending()
            #expect(pending.map(\.notification.id) == ["daily", "future"])
            #expect(pending.first?.nextFireDate == F.instant("2025-06-11T09:00:00+02:00"))

            // Restoring the state the firings left behind delivers nothing again.
            let again = Harness(start: F.instant("2025-06-10T12:00:01+02:00"))
            try await again.running {
                await again.scheduler.restore(pending.map(\.notification))
                #expect(again.recorder.firings.isEmpty)
            }
        }
    }

    @Test("a notification saved in another zone is restored at the same wall-clock time in the current zone")
    func restoreInNewZone() async throws {
        let harness = Harness(start: F.instant("2025-06-02T06:00:00-04:00"), zone: F.newYork)
        try await harness.running {
            let saved = ScheduledNotification(
                id: "daily", trigger: .calendar(CalendarMatch(hour: 9), repeats: true),
                payload: "", scheduledAt: F.instant("2025-06-01T12:00:00+02:00"),
                lastFiredAt: F.instant("2025-06-01T09:00:00+02:00"), timeZoneIdentifier: "Europe/Berlin")
            await harness.scheduler.restore([saved])
            #expect(harness.recorder.firings.isEmpty, "1 June 09:00 was delivered; 2 June 09:00 New York is ahead")
            #expect(await harness.scheduler.pending().first?.nextFireDate == F.instant("2025-06-02T09:00:00-04:00"))
            #expect(await harness.scheduler.pending().first?.notification.timeZoneIdentifier == "America/New_York")
        }
    }

    @Test("after a resume, what came due is delivered once and the timer is re-armed")
    func resume() async throws {
        let harness = Harness()
        let start = harness.clock.now
        try await harness.running {
            try await harness.scheduler.schedule(
                id: "a", trigger: .timeInterval(seconds: 60, repeats: true), payload: "")
            #expect(try await harness.armedDeadline() == start.addingTimeInterval(60))
        }
        #expect(harness.clock.sleepDeadlines.isEmpty, "the run ended with its task group: no sleep is left")

        let other = Harness(start: start)
        try await other.running {
            try await other.scheduler.schedule(id: "a", trigger: .timeInterval(seconds: 60, repeats: true), payload: "")
            _ = try await other.armedDeadline()
            // Suspended for an hour and a half; the resume arrives before the timer task runs.
            other.clock.suspend(for: 5_430)
            await other.scheduler.resumedFromSleep()
            #expect(other.recorder.ids == ["a"])
            #expect(try await other.armedDeadline() == start.addingTimeInterval(5_460))
            #expect(other.recorder.firings.count == 1, "the woken timer found nothing more to do")
        }
    }

    @Test("the system clock returns at once for a passed deadline, and a long sleep ends when cancelled")
    func systemClock() async throws {
        let clock = SystemSchedulerClock()
        try await clock.sleep(until: clock.now.addingTimeInterval(-1))
        let sleeper = Task { try await clock.sleep(until: clock.now.addingTimeInterval(365 * 86_400)) }
        sleeper.cancel()
        let outcome = try await withTimeout(waitingFor: "the cancelled sleep to end") {
            await sleeper.result
        }
        #expect(throws: CancellationError.self) { try outcome.get() }
    }
}
