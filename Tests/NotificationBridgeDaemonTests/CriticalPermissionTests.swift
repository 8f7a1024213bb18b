import DBusCore
import DBusTestSupport
import NotificationBridge
import NotificationBridgeAPI
import NotificationModel
import NotificationServerKit
import Testing

@testable import NotificationBridgeDaemon

/// Critical by permission, from a real sandbox (`bwrap` with a `/.flatpak-info`, its bus filtered by
/// `xdg-dbus-proxy`): while the desktop's do-not-disturb is on, a sandboxed app the user has not allowed critical
/// notifications cannot break through by posting `critical`; its notification is delivered as time-sensitive.
@Suite(
    "Critical by permission",
    .enabled(if: FlatpakSandbox.unavailableReason == nil, "\(FlatpakSandbox.unavailableReason ?? "")"))
struct CriticalPermissionTests {
    static let app = "org.example.Pager"

    static func critical(_ title: String, appName: String? = nil) -> [String: DBusValue] {
        var entries: [String: DBusValue] = [
            PostKeys.title.name: .string(title),
            PostKeys.interruptionLevel.name: .string(NotificationInterruptionLevel.critical.name),
            PostKeys.sound.name: .string("alarm-clock-elapsed"),
        ]
        if let appName { entries[PostKeys.appName.name] = .string(appName) }
        return entries
    }

    /// The pending notifications of `app` that the desktop's switch holds, by title, with their listed level.
    static func held(
        _ fixture: DaemonFixture, of app: String
    ) async throws -> [String: NotificationInterruptionLevel] {
        let listed = try await fixture.call(
            BridgeMethod.listPending.name, [.vardict([FilterKeys.appName.name: .string(app)])])
        guard case .array(_, let items)? = listed.first else { return [:] }
        var held: [String: NotificationInterruptionLevel] = [:]
        for item in items {
            guard let entries = WireEntries(item), entries[ListedKeys.held] == true, let title = entries[PostKeys.title]
            else { continue }
            held[title] = entries[PostKeys.interruptionLevel] ?? .active
        }
        return held
    }

    static func setSettings(_ fixture: DaemonFixture, _ app: String, _ entries: [String: DBusValue]) async throws {
        try await fixture.call(BridgeMethod.setSettings.name, [.string(app), .vardict(entries)])
    }

    @Test(
        "without the permission a sandboxed app's critical notification is time-sensitive and waits; with it, it passes"
    )
    func sandboxedCritical() async throws {
        let desktop = DesktopDoNotDisturbTests.FedSwitch(on: true)
        try await DaemonFixture.with(doNotDisturb: desktop) { fixture in
            try await DesktopDoNotDisturbTests.awaitSwitchOn(fixture)
            let sandbox = try await FlatpakSandbox.start(appID: Self.app, on: fixture.bus, talk: [BridgeAPI.busName])
            defer { sandbox.stop() }
            let pager = try await sandbox.connect()
            defer { Task { await pager.close() } }

            _ = try await fixture.post(Self.critical("break-in"), from: pager)
            // A host program has the permission by default: its critical notification passes, and is the next thing
            // the server gets, so the sandboxed one did not reach it.
            _ = try await fixture.post(Self.critical("smoke alarm", appName: "Alarm"))
            let host = try await fixture.nextNotification()
            #expect(host.summary == "smoke alarm")
            #expect(host.hints["urgency"]?.unwrappedVariant == .byte(2))
            #expect(try await Self.held(fixture, of: Self.app) == ["break-in": .timeSensitive])

            let settings = try await fixture.call(BridgeMethod.getSettings.name, [.string(Self.app)], from: pager)
            #expect(
                settings.first?.stringKeyedEntries?[SettingsKeys.critical.name] == nil,
                "the app reads that the user has not chosen, so the default for a sandboxed app holds")

            // The user allows it: its critical notifications pass the switch as critical ones.
            try await Self.setSettings(fixture, Self.app, [SettingsKeys.critical.name: .boolean(true)])
            _ = try await fixture.post(Self.critical("patient alarm"), from: pager)
            let allowed = try await fixture.nextNotification()
            #expect(allowed.summary == "patient alarm")
            #expect(allowed.hints["urgency"]?.unwrappedVariant == .byte(2))
            #expect(allowed.expireTimeout == 0)

            // The one delivered as time-sensitive comes when the switch is off, as an ordinary notification.
            desktop.set(on: false)
            let lowered = try await fixture.nextNotification()
            #expect(lowered.summary == "break-in")
            #expect(lowered.hints["urgency"]?.unwrappedVariant == .byte(1))
            #expect(lowered.expireTimeout != 0)
        }
    }

    @Test("without the permission, a sandboxed app allowed time-sensitive ones passes, as time-sensitive")
    func sandboxedTimeSensitive() async throws {
        let desktop = DesktopDoNotDisturbTests.FedSwitch(on: true)
        try await DaemonFixture.with(doNotDisturb: desktop) { fixture in
            try await DesktopDoNotDisturbTests.awaitSwitchOn(fixture)
            let sandbox = try await FlatpakSandbox.start(appID: Self.app, on: fixture.bus, talk: [BridgeAPI.busName])
            defer { sandbox.stop() }
            let pager = try await sandbox.connect()
            defer { Task { await pager.close() } }
            try await Self.setSettings(
                fixture, Self.app,
                [SettingsKeys.timeSensitive.name: .boolean(true), SettingsKeys.sound.name: .boolean(false)])

            let id = try await fixture.post(Self.critical("courier"), from: pager)
            let shown = try await fixture.nextNotification()
            #expect(shown.summary == "courier")
            #expect(shown.hints["urgency"]?.unwrappedVariant == .byte(1), "not urgency critical")
            #expect(shown.soundName == nil, "its sounds are off, and only a critical notification is heard anyway")
            let listed = try await BridgeProxy(connection: pager).listDelivered(NotificationFilter())
            #expect(listed.first { $0.id == id }?.interruptionLevel == .timeSensitive, "the app sees what it became")
        }
    }

    @Test("a host program the user turned critical off for gets the same: its critical notification waits")
    func hostTurnedOff() async throws {
        let desktop = DesktopDoNotDisturbTests.FedSwitch(on: true)
        try await DaemonFixture.with(doNotDisturb: desktop) { fixture in
            try await DesktopDoNotDisturbTests.awaitSwitchOn(fixture)
            try await Self.setSettings(fixture, "Noisy", [SettingsKeys.critical.name: .boolean(false)])
            _ = try await fixture.post(Self.critical("not that urgent", appName: "Noisy"))
            _ = try await fixture.post(Self.critical("smoke alarm", appName: "Alarm"))
            #expect(try await fixture.nextNotification().summary == "smoke alarm")
            #expect(try await Self.held(fixture, of: "Noisy") == ["not that urgent": .timeSensitive])
        }
    }
}
