import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import Testing

@testable import NotificationBridgeDaemon

/// The user sets when a focus mode turns itself on, over the bus: in force at once, listed, and kept.
@Suite("Focus schedules set over the bus")
struct FocusScheduleMethodTests {
    /// Every day from midnight to midnight: on at any instant, in any time zone.
    static let always = "every-day 00:00-00:00"

    static func modes(_ fixture: DaemonFixture) async throws -> [FocusModeListing] {
        let reply = try await fixture.call(BridgeMethod.listFocusModes.name)
        guard case .array(_, let items)? = reply.first else { return [] }
        return items.compactMap(FocusModeListing.init)
    }

    @Test(
        "a schedule that has the mode on now turns it on at once; listed with its rules; turned off, it shows the held")
    func scheduledNow() async throws {
        try await DaemonFixture.with(doNotDisturb: DesktopDoNotDisturbTests.FedSwitch(on: false)) { fixture in
            try await fixture.call(
                BridgeMethod.setFocusSchedules.name,
                [.string("sleep"), .strings([Self.always, "sat,sun 23:30-09:00"])])
            let focus = try #require(try await FocusRestoreTests.activeFocus(fixture), "a mode is on")
            #expect(focus.name == "sleep" && focus.cause == "scheduled", "on by its schedule: \(focus)")
            #expect(focus.until != nil, "until the period's end")
            _ = try await fixture.post(FocusRestoreTests.notification("New mail", app: "Mail"))
            #expect(try await FocusRestoreTests.heldTitles(fixture, app: "Mail") == ["New mail"])

            // Its rules are set by hand; its schedules stay.
            try await fixture.call(
                BridgeMethod.turnOnFocus.name,
                [.string("sleep"), FocusRequest(name: "sleep", apps: ["Doorbell"]).options])
            #expect(
                try await Self.modes(fixture)
                    == [
                        FocusModeListing(
                            name: "sleep", apps: ["Doorbell"], threads: [],
                            schedules: [Self.always, "sat,sun 23:30-09:00"])
                    ], "listed with its rules and schedules")
            try await fixture.call(BridgeMethod.turnOffFocus.name)
            #expect(try await fixture.nextNotification().summary == "New mail", "shown once the mode is off")
            #expect(
                try await FocusRestoreTests.activeFocus(fixture) == ActiveFocusState.none,
                "turned off during its period, it stays off until the period ends")
            #expect(try await Self.modes(fixture).map(\.schedules) == [[Self.always, "sat,sun 23:30-09:00"]])
        }
    }

    @Test("a schedule that cannot be read is refused, naming it, and nothing changes")
    func refused() async throws {
        try await DaemonFixture.with { fixture in
            let failure = await #expect(throws: DBusFailure.self) {
                try await fixture.call(
                    BridgeMethod.setFocusSchedules.name, [.string("work"), .strings(["weekdays 09:00-17:00"])])
            }
            #expect(failure?.name == BridgeError.invalidArgument.rawValue, "\(failure?.message ?? "")")
            #expect(failure?.message.contains("'weekdays' is not a day") == true, "\(failure?.message ?? "")")
            let modes = try await Self.modes(fixture)
            #expect(modes.isEmpty, "no mode was made")
        }
    }
}
