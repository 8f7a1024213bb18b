import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationScheduling
import NotificationServerKit
import Testing

@testable import NotificationBridgeDaemon

/// Focus modes timed by the daemon on the scheduler's clock, moved by hand here: a schedule across midnight and across
/// the nights Berlin's clocks change, steps of the wall clock, and a mode on "for 1h" across a restart. Each case reads
/// what a user sees: the `ActiveFocus` property, what `ListPending` lists as held, and what is shown when a mode ends.
@Suite("Focus modes on the scheduler's clock")
struct FocusClockTests {
    static let berlin = TimeZoneRules(identifier: "Europe/Berlin")!
    /// Every night from 22:00 to 07:00, as the user writes it.
    static let nights = "every-day 22:00-07:00"

    /// The instant Berlin's clock shows the given time.
    static func at(_ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0) -> Date {
        FocusScheduleTests.at(month, day, hour, minute)
    }

    /// `ActiveFocus` for `name` on by its schedule until `until`.
    static func scheduled(_ name: String, until: Date) -> ActiveFocusState {
        ActiveFocusState(name: name, cause: "scheduled", until: Int64(until.timeIntervalSince1970.rounded(.up)))
    }

    /// A private bus with a scripted server, on which `body` starts the daemon as often as it likes (a restart keeps
    /// the state directory), each time on `clock` in Berlin's zone, with steps of the wall clock reported by `steps`.
    static func withBus(
        clock: ManualSchedulerClock, steps: AsyncStream<Void>? = nil,
        _ body: @escaping (_ start: Start) async throws -> Void
    ) async throws {
        try await withPrivateBus { bus in
            let serverConnection = try await bus.connect()
            let server = NotificationServer()
            let events = server.events()
            let start: Start = { daemonBody in
                try await DaemonFixture.run(
                    bus: bus, server: server, events: events,
                    doNotDisturb: DesktopDoNotDisturbTests.FedSwitch(on: false), schedulerClock: clock,
                    timeZone: berlin, wallClockSteps: steps
                ) { fixture in try await daemonBody(try await Watched(fixture: fixture, clock: clock)) }
            }
            let result = await outcome {
                try await server.serving(on: serverConnection, profile: NotificationServerProfile.fullFeatured) {
                    try await body(start)
                }
            }
            await serverConnection.close()
            try result.get()
        }
    }

    /// Starts the daemon on the test's bus and runs `body` with it, stopping it when `body` returns.
    typealias Start = @Sendable (_ body: @escaping @Sendable (Watched) async throws -> Void) async throws -> Void

    /// A running daemon with its property changes followed.
    struct Watched: Sendable {
        let fixture: DaemonFixture
        let clock: ManualSchedulerClock
        let changes: AsyncStream<DBusSignal>

        init(fixture: DaemonFixture, clock: ManualSchedulerClock) async throws {
            self.fixture = fixture
            self.clock = clock
            changes = try await fixture.client.signals(
                matching: DBusMatchRule(
                    sender: BridgeAPI.busName, path: BridgeAPI.objectPath,
                    interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged"))
        }

        /// Returns once `ActiveFocus` reads `expected`, woken by each change the daemon announces; fails after a minute.
        func awaitFocus(_ expected: ActiveFocusState, _ context: String) async throws {
            let (fixture, changes) = (fixture, changes)
            try await withTimeout(waitingFor: "ActiveFocus to be \(expected) \(context)") {
                var announced = changes.makeAsyncIterator()
                while try await FocusRestoreTests.activeFocus(fixture) != expected {
                    guard await announced.next() != nil else { throw TestSupportError("the daemon's bus closed") }
                }
            }
        }

        /// Returns once the daemon has asked which mode is on at the clock's time: its focus timer sleeps until a
        /// later instant (every earlier sleep has ended). Nothing else sleeps on the clock in these tests: nothing is
        /// scheduled.
        func awaitLooked(_ context: String) async throws {
            let clock = clock
            let now = clock.now
            try await withTimeout(waitingFor: "the daemon to ask about the focus modes \(context)") {
                await clock.waitForSleepDeadlines { deadlines in
                    !deadlines.isEmpty && deadlines.allSatisfy { $0 > now }
                }
            }
        }

        /// Returns once `ListPending` lists `titles` as held for the app Mail; fails after a minute. A restarted daemon
        /// takes back what it held as the store kept it, shortly after it starts serving, and announces no event then:
        /// this asks again every 50 ms.
        func awaitHeldMail(_ titles: [String], _ context: String) async throws {
            let fixture = fixture
            try await withTimeout(waitingFor: "ListPending to list \(titles) as held \(context)") {
                while try await FocusRestoreTests.heldTitles(fixture, app: "Mail") != titles {
                    try await Task.sleep(for: .milliseconds(50))
                }
            }
        }

        /// Posts a notification titled `title` from the app Mail.
        func postMail(_ title: String) async throws {
            _ = try await fixture.post(FocusRestoreTests.notification(title, app: "Mail"))
        }

        /// The titles the server shows now.
        func shown() async throws -> [String] {
            try await fixture.scripted.shownNotifications.map(\.summary)
        }

        func heldMail() async throws -> [String] {
            try await FocusRestoreTests.heldTitles(fixture, app: "Mail")
        }
    }

    @Test("a mode scheduled from 22:00 to 07:00 turns on at 22:00, stays on past midnight, and shows the held at 07:00")
    func acrossMidnight() async throws {
        let clock = ManualSchedulerClock(now: Self.at(11, 27, 21, 59))
        try await Self.withBus(clock: clock) { start in
            try await start { daemon in
                try await daemon.fixture.call(
                    BridgeMethod.setFocusSchedules.name, [.string("sleep"), .strings([Self.nights])])
                try await daemon.awaitFocus(.none, "at 21:59")

                clock.advance(by: 60)
                let night = Self.scheduled("sleep", until: Self.at(11, 28, 7))
                try await daemon.awaitFocus(night, "at 22:00, until 07:00 the next day")
                try await daemon.postMail("New mail")
                #expect(try await daemon.heldMail() == ["New mail"], "held while the mode is on")

                clock.advance(by: 2.5 * 3600)
                try await daemon.awaitLooked("at 00:30")
                #expect(try await FocusRestoreTests.activeFocus(daemon.fixture) == night, "still on after midnight")
                #expect(try await daemon.heldMail() == ["New mail"])
                #expect(try await daemon.shown().isEmpty, "nothing shown while it is on")

                clock.advance(by: 6.5 * 3600 + 1)
                try await daemon.awaitFocus(.none, "at 07:00")
                #expect(try await daemon.fixture.nextNotification().summary == "New mail", "shown when it ends")
                #expect(try await daemon.shown() == ["New mail"], "shown once")
                #expect(try await daemon.heldMail().isEmpty)
            }
        }
    }

    /// The nights Berlin's clocks change in 2026, each from Saturday 22:00 to Sunday 07:00: the one in March loses an
    /// hour (02:00 becomes 03:00), the one in October gains one (03:00 becomes 02:00 again).
    static let changeNights: [(name: String, start: Date, end: Date, hours: Double)] = [
        ("spring forward, 29 March", at(3, 28, 22), at(3, 29, 7), 8),
        ("fall back, 25 October", at(10, 24, 22), at(10, 25, 7), 10),
    ]

    @Test(
        "a mode scheduled from 22:00 to 07:00 ends at 07:00 by the wall clock on a night the clocks change",
        arguments: changeNights.indices)
    func acrossDaylightSavingChange(row: Int) async throws {
        let night = Self.changeNights[row]
        #expect(night.end.timeIntervalSince(night.start) == night.hours * 3600, "the night as Berlin has it")
        let clock = ManualSchedulerClock(now: night.start.addingTimeInterval(-60))
        try await Self.withBus(clock: clock) { start in
            try await start { daemon in
                try await daemon.fixture.call(
                    BridgeMethod.setFocusSchedules.name, [.string("sleep"), .strings([Self.nights])])
                try await daemon.awaitFocus(.none, "before 22:00 (\(night.name))")

                clock.advance(by: 60)
                try await daemon.awaitFocus(
                    Self.scheduled("sleep", until: night.end), "at 22:00, until 07:00 on Sunday (\(night.name))")
                try await daemon.postMail("New mail")

                clock.advance(by: night.hours * 3600 - 61)
                try await daemon.awaitLooked("a minute before 07:00 (\(night.name))")
                #expect(
                    try await FocusRestoreTests.activeFocus(daemon.fixture)?.name == "sleep",
                    "still on at 06:59 (\(night.name))")
                #expect(try await daemon.heldMail() == ["New mail"])
                #expect(try await daemon.shown().isEmpty, "nothing shown while it is on")

                clock.advance(by: 62)
                try await daemon.awaitFocus(.none, "just after 07:00 (\(night.name))")
                #expect(try await daemon.fixture.nextNotification().summary == "New mail", "shown when it ends")
                #expect(try await daemon.shown() == ["New mail"], "shown once")
            }
        }
    }

    @Test("the wall clock set past the end of a mode on for 1h ends it at once, and what it held is shown")
    func clockSetForward() async throws {
        let clock = ManualSchedulerClock(now: Self.at(11, 27, 10))
        let (steps, step) = AsyncStream<Void>.makeStream()
        try await Self.withBus(clock: clock, steps: steps) { start in
            try await start { daemon in
                try await daemon.fixture.call(
                    BridgeMethod.turnOnFocus.name,
                    [.string("work"), FocusRequest(name: "work", end: .after(seconds: 3600)).options])
                try await daemon.awaitFocus(
                    ActiveFocusState(
                        name: "work", cause: "manual", until: Int64(Self.at(11, 27, 11).timeIntervalSince1970)),
                    "on for 1h")
                try await daemon.postMail("New mail")
                #expect(try await daemon.heldMail() == ["New mail"])

                clock.set(to: Self.at(11, 27, 12))
                step.yield()
                try await daemon.awaitFocus(.none, "after the clock was set to 12:00")
                #expect(try await daemon.fixture.nextNotification().summary == "New mail", "shown when it ends")
                #expect(try await daemon.shown() == ["New mail"], "shown once")
            }
        }
    }

    @Test("the wall clock set back into a scheduled period turns the mode on again, until the period's end")
    func clockSetBack() async throws {
        let clock = ManualSchedulerClock(now: Self.at(11, 28, 7, 30))
        let (steps, step) = AsyncStream<Void>.makeStream()
        try await Self.withBus(clock: clock, steps: steps) { start in
            try await start { daemon in
                try await daemon.fixture.call(
                    BridgeMethod.setFocusSchedules.name, [.string("sleep"), .strings([Self.nights])])
                try await daemon.awaitFocus(.none, "at 07:30")

                clock.set(to: Self.at(11, 28, 6, 30))
                step.yield()
                try await daemon.awaitFocus(
                    Self.scheduled("sleep", until: Self.at(11, 28, 7)), "after the clock was set back to 06:30")
                try await daemon.postMail("New mail")
                #expect(try await daemon.heldMail() == ["New mail"], "held again")

                clock.advance(by: 30 * 60 + 1)
                try await daemon.awaitFocus(.none, "at 07:00 again")
                #expect(try await daemon.fixture.nextNotification().summary == "New mail", "shown when it ends")
                #expect(try await daemon.shown() == ["New mail"], "shown once")
            }
        }
    }

    @Test("a mode on for 1h is still on after a restart within the hour, and ends at its time")
    func forAnHourAcrossRestart() async throws {
        let clock = ManualSchedulerClock(now: Self.at(11, 27, 10))
        let working = ActiveFocusState(
            name: "work", cause: "manual", until: Int64(Self.at(11, 27, 11).timeIntervalSince1970))
        try await Self.withBus(clock: clock) { start in
            try await start { daemon in
                try await daemon.fixture.call(
                    BridgeMethod.turnOnFocus.name,
                    [.string("work"), FocusRequest(name: "work", end: .after(seconds: 3600)).options])
                try await daemon.awaitFocus(working, "on for 1h")
                try await daemon.postMail("New mail")
                #expect(try await daemon.heldMail() == ["New mail"])
            }
            // Half an hour passes while no daemon runs.
            clock.advance(by: 30 * 60)
            try await start { daemon in
                try await daemon.awaitFocus(working, "after the restart at 10:30")
                try await daemon.awaitHeldMail(["New mail"], "held again after the restart")

                clock.advance(by: 29 * 60)
                try await daemon.awaitLooked("at 10:59")
                #expect(try await FocusRestoreTests.activeFocus(daemon.fixture) == working, "on until 11:00")
                #expect(try await daemon.shown().isEmpty, "nothing shown while it is on")

                clock.advance(by: 61)
                try await daemon.awaitFocus(.none, "at 11:00")
                #expect(try await daemon.fixture.nextNotification().summary == "New mail", "shown when it ends")
                #expect(try await daemon.shown() == ["New mail"], "shown once")
                #expect(try await daemon.heldMail().isEmpty)
            }
        }
    }
}
