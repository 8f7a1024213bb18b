import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationBridgeDaemon
import NotificationModel
import NotificationServerKit
import Testing

/// Snooze through the daemon: the buttons it adds, a click that puts the notification off, its return after the
/// interval (once, with its responses going where they went), the user's setting that turns it off, and the opt-in
/// report.
@Suite("Snooze")
struct SnoozeTests {
    private static let signals = DBusMatchRule(
        sender: BridgeAPI.busName, path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName)

    /// Registers category `id` with a "Done" action and the snooze intervals `seconds`.
    private static func register(
        _ fixture: DaemonFixture, _ id: String, snooze seconds: [Int32], actions: [String] = ["done"],
        reportsSnooze: Bool = false
    ) async throws {
        var options: [String: DBusValue] = [
            CategoryOptionKeys.snooze.name: .array(element: "i", seconds.map(DBusValue.int32))
        ]
        if reportsSnooze { options[CategoryOptionKeys.reportsSnooze.name] = .boolean(true) }
        let list = DBusValue.array(
            element: "a{sv}",
            actions.map { id in
                .vardict([
                    ActionKeys.id.name: .string(id), ActionKeys.title.name: .string(id.capitalized),
                    ActionKeys.activation.name: .string("background"),
                ])
            })
        try await fixture.call(BridgeMethod.registerCategory.name, [.string(id), list, .vardict(options)])
    }

    @Test(
        "one button per interval; a click takes it off the screen, it comes back once, its answer reaches the poster"
    )
    func snoozeAndReturn() async throws {
        try await DaemonFixture.with(.xfce4Notifyd) { fixture in
            try await Self.register(fixture, "reminder", snooze: [1, 3600])
            let poster = try await fixture.bus.connect()
            let signals = try await poster.signals(matching: Self.signals)
            let id = try await fixture.post(
                [PostKeys.title.name: .string("Call Ann"), PostKeys.category.name: .string("reminder")], from: poster)
            let shown = try await fixture.nextNotification()
            #expect(
                shown.actions.map(\.description) == ["done=Done", "snooze:1=Snooze 1 s", "snooze:3600=Snooze 1 h"])

            try await fixture.scripted.invokeAction(id: shown.id, key: "snooze:1")
            try await fixture.nextClosure(of: shown.id)
            let back = try await fixture.nextNotification()
            #expect(back.summary == "Call Ann")
            #expect(back.id != shown.id)
            #expect(back.actions.map(\.key) == ["done", "snooze:1", "snooze:3600"])

            // Given the time to come back a second time, it does not: the next notification is the marker.
            try await Task.sleep(for: .seconds(2))
            _ = try await fixture.post([PostKeys.title.name: .string("marker")])
            #expect(try await fixture.nextNotification().summary == "marker")

            // The poster heard nothing of the snooze (no Closed, no Responded): the first signal is the answer.
            try await fixture.scripted.invokeAction(id: back.id, key: "done")
            let responded = try await signals.first(within: .seconds(30), waitingFor: "the poster's Responded")
            #expect(responded.member == BridgeSignal.responded.name)
            #expect(responded.arguments.prefix(2) == [.string(id), .string("done")])
            await poster.close()
        }
    }

    @Test("where three buttons fit (GNOME Shell), one snooze button for the first interval, the actions making room")
    func fewButtons() async throws {
        try await DaemonFixture.with(.gnomeShell) { fixture in
            try await Self.register(
                fixture, "mail", snooze: [600, 3600], actions: ["reply", "archive", "delete", "spam"])
            _ = try await fixture.post(
                [PostKeys.title.name: .string("New mail"), PostKeys.category.name: .string("mail")])
            let shown = try await fixture.nextNotification()
            let keys = shown.actions.map(\.key).filter { $0 != "default" }
            #expect(keys.count == 3)
            #expect(keys.last == "snooze:600")
            #expect(shown.actions.last?.label == "Snooze 10 min")
            #expect(!keys.contains("snooze:3600"))
        }
    }

    @Test("the user's setting turns snooze off: no button, for the category's and the notification's own intervals")
    func settingOff() async throws {
        try await DaemonFixture.with(.xfce4Notifyd) { fixture in
            try await Self.register(fixture, "reminder", snooze: [600])
            try await fixture.call(
                BridgeMethod.setSettings.name,
                [.string("Mail"), .vardict([SettingsKeys.snooze.name: .boolean(false)])])
            _ = try await fixture.post(
                [
                    PostKeys.title.name: .string("Call Ann"), PostKeys.appName.name: .string("Mail"),
                    PostKeys.category.name: .string("reminder"),
                ])
            #expect(try await fixture.nextNotification().actions.map(\.key) == ["done"])
            _ = try await fixture.post(
                [
                    PostKeys.title.name: .string("Own"), PostKeys.appName.name: .string("Mail"),
                    PostKeys.snooze.name: .array(element: "i", [.int32(60)]),
                ])
            #expect(try await fixture.nextNotification().actions.isEmpty)
            // Another app keeps its snooze.
            _ = try await fixture.post(
                [
                    PostKeys.title.name: .string("Other"), PostKeys.appName.name: .string("Chat"),
                    PostKeys.snooze.name: .array(element: "i", [.int32(60)]),
                ])
            #expect(try await fixture.nextNotification().actions.map(\.key) == ["snooze:60"])
        }
    }

    @Test("a category that asks for it hears of the snooze: Responded with action snooze, and it comes back")
    func reportedSnooze() async throws {
        try await DaemonFixture.with(.xfce4Notifyd) { fixture in
            try await Self.register(fixture, "reminder", snooze: [1], reportsSnooze: true)
            let poster = try await fixture.bus.connect()
            let signals = try await poster.signals(matching: Self.signals)
            let id = try await fixture.post(
                [PostKeys.title.name: .string("Call Ann"), PostKeys.category.name: .string("reminder")], from: poster)
            let shown = try await fixture.nextNotification()
            try await fixture.scripted.invokeAction(id: shown.id, key: "snooze:1")
            let responded = try await signals.first(within: .seconds(30), waitingFor: "Responded for the snooze")
            #expect(responded.member == BridgeSignal.responded.name)
            #expect(responded.arguments.prefix(2) == [.string(id), .string(NotificationResponse.snoozeActionID)])
            #expect(try await fixture.nextNotification().summary == "Call Ann")
            await poster.close()
        }
    }

    @Test(
        "bad intervals are refused with what to change",
        arguments: [[0], [-5], [8 * 86_400], [60, 60], [1, 2, 3, 4, 5]] as [[Int32]])
    func badIntervals(seconds: [Int32]) async throws {
        try await DaemonFixture.with { fixture in
            let error = await #expect(throws: DBusFailure.self) {
                _ = try await fixture.post(
                    [
                        PostKeys.title.name: .string("Call Ann"),
                        PostKeys.snooze.name: .array(element: "i", seconds.map(DBusValue.int32)),
                    ])
            }
            #expect(error?.name == BridgeError.invalidArgument.rawValue)
            #expect(error?.message.contains(PostKeys.snooze.name) == true)
        }
    }
}
