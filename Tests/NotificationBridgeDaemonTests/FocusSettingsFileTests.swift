import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationServerKit
import Testing

@testable import NotificationBridgeDaemon

/// The settings file defines the focus modes; the bus turns them on and off, and writes what it changes of them to the
/// file: a mode written by hand is one `focus on` turns on, an edit is in force once saved, and what `TurnOnFocus`
/// and `SetFocusSchedules` set is in the file.
@Suite("Focus modes defined in settings.ini")
struct FocusSettingsFileTests {
    static func file(_ fixture: DaemonFixture) -> URL {
        fixture.directory.appendingPathComponent("config/notification-bridge/settings.ini")
    }

    static func write(_ text: String, _ fixture: DaemonFixture) throws {
        try FileManager.default.createDirectory(
            at: file(fixture).deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: file(fixture), atomically: true, encoding: .utf8)
    }

    @Test("a mode written by hand is turned on by name with its rules kept; an edit of it is in force once saved")
    func writtenByHand() async throws {
        try await DaemonFixture.with(doNotDisturb: DesktopDoNotDisturbTests.FedSwitch(on: false)) { fixture in
            try Self.write("[focus sleep]\nallow-apps=Doorbell;\n", fixture)
            try await fixture.call(
                BridgeMethod.turnOnFocus.name, [.string("sleep"), FocusRequest(name: "sleep").options])
            _ = try await fixture.post(FocusRestoreTests.notification("New mail", app: "Mail"))
            _ = try await fixture.post(FocusRestoreTests.notification("Someone at the door", app: "Doorbell"))
            #expect(
                try await fixture.nextNotification().summary == "Someone at the door",
                "the app the file lets through passes, though focus on named none")
            #expect(try await FocusRestoreTests.heldTitles(fixture, app: "Mail") == ["New mail"])

            try Self.write("[focus sleep]\nallow-apps=Doorbell;Mail;\n", fixture)
            #expect(
                try await fixture.nextNotification().summary == "New mail",
                "what the edited mode now lets through is shown, with no call")
            let focus = try await FocusRestoreTests.activeFocus(fixture)
            #expect(
                focus?.name == "sleep" && focus?.cause == "manual", "still on by hand: \(String(describing: focus))")
        }
    }

    @Test("TurnOnFocus and SetFocusSchedules write the mode to settings.ini; ListFocusModes lists what it holds")
    func writtenThrough() async throws {
        try await DaemonFixture.with(doNotDisturb: DesktopDoNotDisturbTests.FedSwitch(on: false)) { fixture in
            try Self.write("# my modes\n[focus work]\nallow-apps=Pager;\n", fixture)
            try await fixture.call(
                BridgeMethod.turnOnFocus.name,
                [
                    .string("sleep"),
                    FocusRequest(name: "sleep", threads: [.init(app: "Chat", id: "ann")], end: .after(seconds: 3600))
                        .options,
                ])
            try await fixture.call(
                BridgeMethod.setFocusSchedules.name, [.string("sleep"), .strings(["mon-fri 22:00-07:00"])])
            let text = try String(contentsOf: Self.file(fixture), encoding: .utf8)
            #expect(text.contains("# my modes") && text.contains("allow-apps=Pager;"), "kept as written: \(text)")
            #expect(text.contains("[focus sleep]"), "\(text)")
            #expect(text.contains("\(FocusOptionKeys.allowThreads.name)=Chat/ann;"), "\(text)")
            #expect(text.contains("\(FocusModeKeys.schedules.name)=mon-fri 22:00-07:00;"), "\(text)")
            #expect(
                try await FocusScheduleMethodTests.modes(fixture) == [
                    FocusModeListing(
                        name: "sleep", apps: [], threads: [.init(app: "Chat", id: "ann")],
                        schedules: ["mon-fri 22:00-07:00"]),
                    FocusModeListing(name: "work", apps: ["Pager"], threads: [], schedules: []),
                ])
        }
    }

    @Test("a group taken out of the file while its mode is on turns the mode off, and what it held is shown")
    func groupRemoved() async throws {
        try await DaemonFixture.with(doNotDisturb: DesktopDoNotDisturbTests.FedSwitch(on: false)) { fixture in
            try Self.write("[focus sleep]\nallow-time-sensitive=false\n", fixture)
            try await fixture.call(
                BridgeMethod.turnOnFocus.name, [.string("sleep"), FocusRequest(name: "sleep").options])
            _ = try await fixture.post(FocusRestoreTests.notification("New mail", app: "Mail"))
            #expect(try await FocusRestoreTests.heldTitles(fixture, app: "Mail") == ["New mail"])

            try Self.write("[app Mail]\nallowed=true\n", fixture)
            #expect(try await fixture.nextNotification().summary == "New mail", "shown once its mode is gone")
            #expect(try await FocusRestoreTests.activeFocus(fixture) == ActiveFocusState.none)
            #expect(try await FocusScheduleMethodTests.modes(fixture).isEmpty)
        }
    }

    @Test("a mode the state kept from before the file defined modes is written to the file at the start")
    func adoptedFromState() async throws {
        try await FocusRestoreTests.withSaved(try FocusRestoreTests.work(until: Date().addingTimeInterval(3600))) {
            fixture in
            // Read once the daemon has restored its state.
            #expect(try await FocusRestoreTests.activeFocus(fixture)?.name == "work", "still on by hand")
            let text = try String(contentsOf: Self.file(fixture), encoding: .utf8)
            #expect(text.contains("[focus work]"), "\(text)")
            #expect(text.contains("\(FocusOptionKeys.allowApps.name)=Doorbell;"), "\(text)")
        }
    }
}
