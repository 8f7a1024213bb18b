import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationModel
import NotificationServerKit
import Testing

/// The user's per-app notification settings, kept in the bridge's own file, seen at the notification server: what
/// `Notify` received, or that nothing was sent.
@Suite("Notification settings at the server")
struct SettingsTests {
    @Test("a denied app's post is refused with NotAllowed, and nothing reaches the server")
    func deniedAppGetsNothing() async throws {
        try await DaemonFixture.with { fixture in
            let set = try await fixture.gdbus(BridgeMethod.setSettings.name, "Mail", "{'allowed': <false>}")
            #expect(set.status == 0, "\(set.standardError)")
            let refused = await outcome { try await post(fixture, "Mail", "Ann") }
            let failure = try #require(refused.failure as? DBusFailure)
            #expect(failure.name == BridgeError.notAllowed.rawValue)
            #expect(failure.message.contains("turned off"), "\(failure.message)")
            #expect(failure.message.contains("notification-bridge settings Mail --allow"), "\(failure.message)")
            // The server's events are in order: the next one it gets is the other app's.
            _ = try await post(fixture, "Backup", "Done")
            #expect(try await fixture.nextNotification().summary == "Done")
        }
    }

    @Test("alert stays (expire timeout 0, resident); a chosen banner keeps the server's timeout, not transient")
    func alertAndBanner() async throws {
        try await DaemonFixture.with { fixture in
            let proxy = BridgeProxy(connection: fixture.client)
            var alert = SettingsChange()
            alert.style = .alert
            try await proxy.setSettings(app: "Mail", alert)
            _ = try await post(fixture, "Mail", "Alert", [PostKeys.timeout.name: .int32(5000)])
            let shownAlert = try await fixture.nextNotification()
            #expect(shownAlert.expireTimeout == 0)
            #expect(shownAlert.hints["resident"]?.unwrappedVariant == .boolean(true))

            var banner = SettingsChange()
            banner.style = .banner
            try await proxy.setSettings(app: "Mail", banner)
            _ = try await post(fixture, "Mail", "Banner", [PostKeys.timeout.name: .int32(0)])
            let shownBanner = try await fixture.nextNotification()
            #expect(shownBanner.expireTimeout == -1)
            #expect(shownBanner.hints["transient"] == nil, "a banner stays in the server's list")
            #expect(shownBanner.hints["resident"] == nil)
        }
    }

    @Test("an app whose style the user never chose is shown as it asks: a notification that stays, stays")
    func defaultStyleChangesNothing() async throws {
        try await DaemonFixture.with { fixture in
            _ = try await post(fixture, "Notes", "Pinned", [PostKeys.timeout.name: .int32(0)])
            let shown = try await fixture.nextNotification()
            #expect(shown.expireTimeout == 0)
            #expect(shown.hints["transient"] == nil, "a transient notification leaves the server's list")
        }
    }

    @Test("sound off sends suppress-sound and no sound hint; what the app asked for is the ceiling")
    func soundOff() async throws {
        try await DaemonFixture.with { fixture in
            let set = try await fixture.gdbus(BridgeMethod.setSettings.name, "Chat", "{'sound': <false>}")
            #expect(set.status == 0, "\(set.standardError)")
            _ = try await post(fixture, "Chat", "Hi", [PostKeys.sound.name: .string("message-new-instant")])
            let quiet = try await fixture.nextNotification()
            #expect(quiet.hints["suppress-sound"]?.unwrappedVariant == .boolean(true))
            #expect(quiet.hints["sound-name"] == nil)

            // Another app allowed a sound by the user, which asked only for alerts: no sound either.
            let asked = try await fixture.gdbus(BridgeMethod.setSettings.name, "Game", "{'requested': <['alert']>}")
            #expect(asked.status == 0, "\(asked.standardError)")
            _ = try await post(fixture, "Game", "Your turn", [PostKeys.sound.name: .string("bell")])
            let ceiling = try await fixture.nextNotification()
            #expect(ceiling.hints["suppress-sound"]?.unwrappedVariant == .boolean(true))
            #expect(ceiling.hints["sound-name"] == nil)
        }
    }

    @Test("badge off: no LauncherEntry update for the app; another app's badge still goes out")
    func badgeOff() async throws {
        try await DaemonFixture.with { fixture in
            let updates = try await fixture.client.signals(
                matching: DBusMatchRule(interface: "com.canonical.Unity.LauncherEntry", member: "Update"))
            _ = try await fixture.gdbus(BridgeMethod.setSettings.name, "org.example.Mail", "{'badge': <false>}")
            _ = try await fixture.post([
                PostKeys.desktopEntry.name: .string("org.example.Mail"), PostKeys.title.name: .string("Ann"),
                PostKeys.badge.name: .int32(3),
            ])
            _ = try await fixture.post([
                PostKeys.desktopEntry.name: .string("org.example.Chat"), PostKeys.title.name: .string("Bob"),
                PostKeys.badge.name: .int32(1),
            ])
            let first = try await withTimeout(waitingFor: "a LauncherEntry update") { () -> String in
                for await signal in updates { return signal.arguments.first?.stringValue ?? "" }
                throw TestSupportError("the signals ended")
            }
            #expect(first == "application://org.example.Chat.desktop")
        }
    }

    @Test("style none and do-not-disturb: nothing shown on a server without GNOME's list; critical ones still come")
    func styleNoneAndDoNotDisturb() async throws {
        try await DaemonFixture.with { fixture in
            _ = try await fixture.gdbus(BridgeMethod.setSettings.name, "News", "{'style': <'none'>}")
            let none = await outcome { try await post(fixture, "News", "Headline") }
            let noneFailure = try #require(none.failure as? DBusFailure)
            #expect(noneFailure.name == BridgeError.notAllowed.rawValue)
            #expect(noneFailure.message.contains("style none"), "\(noneFailure.message)")

            let quiet = try await fixture.gdbus(BridgeMethod.setSettings.name, "", "{'do-not-disturb': <true>}")
            #expect(quiet.status == 0, "\(quiet.standardError)")
            let global = try await fixture.gdbus(BridgeMethod.getSettings.name, "")
            #expect(global.output.contains("'do-not-disturb': <true>"), "\(global.output)")
            let normal = await outcome { try await post(fixture, "Mail", "Later") }
            #expect((normal.failure as? DBusFailure)?.name == BridgeError.notAllowed.rawValue)
            _ = try await post(fixture, "Mail", "Now", [PostKeys.urgency.name: .string("critical")])
            #expect(try await fixture.nextNotification().summary == "Now")
        }
    }

    @Test("a denied app's scheduled notification comes due without being shown")
    func deniedScheduledDoesNotFire() async throws {
        try await DaemonFixture.with { fixture in
            _ = try await fixture.gdbus(BridgeMethod.setSettings.name, "Kettle", "{'allowed': <false>}")
            let id = try await post(fixture, "Kettle", "Tea is ready", [PostKeys.delay.name: .double(0.2)])
            let waited = await outcome { try await fixture.call(BridgeMethod.waitForResponse.name, [.string(id)]) }
            let failure = try #require(waited.failure as? DBusFailure)
            #expect(failure.name == BridgeError.closed.rawValue)
            #expect(failure.message.contains("not shown"), "\(failure.message)")
            _ = try await post(fixture, "Backup", "Done")
            #expect(try await fixture.nextNotification().summary == "Done")
        }
    }

    @Test("the settings file edited by hand while the daemon runs: SettingsChanged, and the next post obeys it")
    func fileEditedByHand() async throws {
        try await DaemonFixture.with { fixture in
            _ = try await post(fixture, "Mail", "First")
            _ = try await fixture.nextNotification()
            let changes = try await fixture.client.signals(matching: BridgeProxy.signals([.settingsChanged]))
            let file = fixture.directory.appendingPathComponent("config/notification-bridge/settings.ini")
            let before = try String(contentsOf: file, encoding: .utf8)
            #expect(before.contains("[app Mail]"), "the app that posted is listed: \(before)")
            let edited = "# turned off by hand\n[app Mail]\nallowed=false\nstyle=loud\n"
            try edited.write(to: file, atomically: true, encoding: .utf8)
            let changed = try await withTimeout(waitingFor: "SettingsChanged for Mail") { () -> DBusValue in
                for await signal in changes where signal.arguments.first?.stringValue == "Mail" {
                    return signal.arguments[1]
                }
                throw TestSupportError("the signals ended")
            }
            let record = try AppSettingsRecord(changed)
            #expect(record.settings.isAllowed == false)
            #expect(record.settings.style == .banner, "an unknown style is ignored")
            let refused = await outcome { try await post(fixture, "Mail", "Second") }
            #expect((refused.failure as? DBusFailure)?.name == BridgeError.notAllowed.rawValue)
        }
    }

    @Test("invalid settings get errors that name the key and what it takes")
    func invalidSettings() async throws {
        try await DaemonFixture.with { fixture in
            let style = try await fixture.gdbus(BridgeMethod.setSettings.name, "Mail", "{'style': <'loud'>}")
            #expect(style.status != 0)
            #expect(style.standardError.contains("Error.InvalidArgument"), "\(style.standardError)")
            #expect(style.standardError.contains("'alert', 'banner', 'none'"), "\(style.standardError)")
            let sound = try await fixture.gdbus(BridgeMethod.setSettings.name, "Mail", "{'sound': <'off'>}")
            #expect(sound.standardError.contains("expected a boolean"), "\(sound.standardError)")
            let unknown = try await fixture.gdbus(BridgeMethod.setSettings.name, "Mail", "{'volume': <0>}")
            #expect(unknown.standardError.contains("unknown key 'volume'"), "\(unknown.standardError)")
            let requested = try await fixture.gdbus(
                BridgeMethod.setSettings.name, "Mail", "{'requested': <['alerts']>}")
            #expect(requested.standardError.contains("'alert', 'sound' and 'badge'"), "\(requested.standardError)")
            let noApp = try await fixture.gdbus(BridgeMethod.setSettings.name, "", "{'allowed': <false>}")
            #expect(noApp.standardError.contains("give the app's desktop id"), "\(noApp.standardError)")
            let brackets = try await fixture.gdbus(BridgeMethod.setSettings.name, "Ma]il", "{'allowed': <false>}")
            #expect(brackets.standardError.contains("without brackets"), "\(brackets.standardError)")
        }
    }

    @Test("ListSettings lists every app that posted, with its settings, and GetSettings reads one")
    func listing() async throws {
        try await DaemonFixture.with { fixture in
            _ = try await post(fixture, "Mail", "One")
            _ = try await post(fixture, "Chat", "Two", [PostKeys.desktopEntry.name: .string("org.example.Chat")])
            _ = try await fixture.gdbus(
                BridgeMethod.setSettings.name, "Mail", "{'badge': <false>, 'lock-screen': <'private'>}")
            let records = try await BridgeProxy(connection: fixture.client).listSettings()
            #expect(records.map(\.app) == ["Mail", "org.example.Chat"])
            let mail = try #require(records.first)
            #expect(mail.settings.showsBadge == false)
            #expect(mail.settings.lockScreen == .private)
            #expect(mail.source == .file)
            let got = try await fixture.gdbus(BridgeMethod.getSettings.name, "Mail")
            #expect(got.output.contains("'lock-screen': <'private'>"), "\(got.output)")
        }
    }
}

/// Posts a notification of `app` through the daemon and returns its id.
private func post(
    _ fixture: DaemonFixture, _ app: String, _ title: String, _ extra: [String: DBusValue] = [:]
) async throws -> String {
    try await fixture.post(
        [PostKeys.appName.name: .string(app), PostKeys.title.name: .string(title)].merging(extra) { $1 })
}

extension Result {
    /// The error, or `nil` for a success.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
