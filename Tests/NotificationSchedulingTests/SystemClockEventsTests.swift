import DBusCore
import DBusTestSupport
import Foundation
import NotificationModel
import Testing

@testable import NotificationScheduling

/// timedated and logind stand-ins on a private bus used as the system bus, driving a scheduler through
/// ``SystemClockEvents``.
@Suite("Time-zone changes and resumes from the system bus")
struct SystemClockEventsTests {
    typealias F = SchedulingFixtures
    typealias Harness = SchedulerTests.Harness

    /// A wall-clock notification at 09:00 on 3 June 2025, scheduled in Berlin, following the events of `system`.
    private static func following(
        _ system: PrivateBus, _ body: (Harness, DBusConnection) async throws -> Void
    ) async throws {
        let harness = Harness()
        try await harness.running {
            try await harness.scheduler.schedule(
                id: "wake", trigger: .date(.wallClock(LocalDateTime(year: 2025, month: 6, day: 3, hour: 9))),
                payload: "wake")
            let listener = try await system.connect()
            let events = try await SystemClockEvents.follow(on: listener)
            let following = Task { await harness.scheduler.follow(events) }
            let announcer = try await system.connect()
            _ = try await announcer.requestName("org.freedesktop.timedate1")
            _ = try await announcer.requestName("org.freedesktop.login1")
            defer { following.cancel() }
            try await body(harness, announcer)
            await listener.close()
            await announcer.close()
        }
    }

    /// Waits until the notification's next fire date is `expected`.
    private static func waitForFireDate(_ expected: Date, _ harness: Harness, after what: String) async throws {
        try await withTimeout(waitingFor: "the fire date to move after \(what)") {
            while await harness.scheduler.pending(id: "wake")?.nextFireDate != expected {
                try await Task.sleep(for: .milliseconds(10))
            }
        }
    }

    @Test("timedated's PropertiesChanged(Timezone) moves a wall-clock fire date to the new zone")
    func timedatedZoneChange() async throws {
        try await withPrivateBus { system in
            try await Self.following(system) { harness, timedated in
                #expect(
                    await harness.scheduler.pending(id: "wake")?.nextFireDate
                        == F.instant("2025-06-03T09:00:00+02:00"))
                harness.zone.set(F.newYork)
                try timedated.emit(
                    path: "/org/freedesktop/timedate1", interface: "org.freedesktop.DBus.Properties",
                    member: "PropertiesChanged",
                    arguments: [
                        .string("org.freedesktop.timedate1"), .vardict(["Timezone": .string("America/New_York")]),
                        .array(element: "s", []),
                    ])
                try await Self.waitForFireDate(F.instant("2025-06-03T09:00:00-04:00"), harness, after: "timedated")
            }
        }
    }

    @Test("logind's PrepareForSleep(false) re-reads a zone that changed while the machine slept")
    func resumeRereadsZone() async throws {
        try await withPrivateBus { system in
            try await Self.following(system) { harness, logind in
                harness.zone.set(F.tokyo)
                let emitSleep: @Sendable (Bool) throws -> Void = { start in
                    try logind.emit(
                        path: "/org/freedesktop/login1", interface: "org.freedesktop.login1.Manager",
                        member: "PrepareForSleep", arguments: [.boolean(start)])
                }
                // Going to sleep changes nothing; waking up does.
                try emitSleep(true)
                try emitSleep(false)
                try await Self.waitForFireDate(F.instant("2025-06-03T09:00:00+09:00"), harness, after: "the resume")
            }
        }
    }
}
