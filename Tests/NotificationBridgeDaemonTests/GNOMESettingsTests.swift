import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationModel
import NotificationServerKit
import Testing

/// The settings kept in GNOME's own GSettings keys, with the real schemas (gsettings-desktop-schemas) and GLib's
/// key-file backend instead of dconf: what the bridge writes, `gsettings` (as GNOME's Settings app would) reads; what
/// `gsettings` writes, the running daemon follows.
@Suite("Notification settings in GNOME's keys", .enabled(if: gnomeSchemasInstalled))
struct GNOMESettingsTests {
    static let app = "org.example.Mail"
    static let appPath =
        "org.gnome.desktop.notifications.application:/org/gnome/desktop/notifications/application/"
        + "org-example-mail/"

    /// A folder standing for `XDG_CONFIG_HOME`, whose `glib-2.0/settings/keyfile` holds the keys.
    struct Keys {
        let home: URL
        var file: String { home.appendingPathComponent("glib-2.0/settings/keyfile").path }

        /// Runs `gsettings` on the same keys.
        func gsettings(_ arguments: String...) async throws -> String {
            var environment = ProcessInfo.processInfo.environment
            environment["GSETTINGS_BACKEND"] = "keyfile"
            environment["XDG_CONFIG_HOME"] = home.path
            let result = try await ProcessRunner.run(
                ["gsettings"] + arguments, environment: environment, timeout: .seconds(20))
            guard result.status == 0 else { throw TestSupportError("gsettings failed: \(result.standardError)") }
            return result.output
        }
    }

    static func withKeys<T: Sendable>(
        _ profile: NotificationServerProfile = .fullFeatured, _ body: (DaemonFixture, Keys) async throws -> T
    ) async throws -> T {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("nb-gnome-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let keys = Keys(home: home)
        return try await DaemonFixture.with(profile, settings: .gnome(.keyFile(keys.file))) { try await body($0, keys) }
    }

    @Test("a change through the bridge is written to GNOME's keys, and the app is listed as GNOME Shell lists it")
    func writtenBack() async throws {
        try await Self.withKeys { fixture, keys in
            let set = try await fixture.gdbus(
                BridgeMethod.setSettings.name, Self.app,
                "{'allowed': <false>, 'style': <'alert'>, 'sound': <false>, 'lock-screen': <'hide'>}")
            #expect(set.status == 0, "\(set.standardError)")
            #expect(try await keys.gsettings("get", Self.appPath, "enable") == "false")
            #expect(try await keys.gsettings("get", Self.appPath, "force-expanded") == "true")
            #expect(try await keys.gsettings("get", Self.appPath, "enable-sound-alerts") == "false")
            #expect(try await keys.gsettings("get", Self.appPath, "show-in-lock-screen") == "false")
            #expect(try await keys.gsettings("get", Self.appPath, "application-id") == "'org.example.Mail.desktop'")
            let children = try await keys.gsettings("get", "org.gnome.desktop.notifications", "application-children")
            #expect(children == "['org-example-mail']")
            let record = try await BridgeProxy(connection: fixture.client).settings(app: Self.app)
            #expect(record.source == .gnome)
            #expect(
                record.settings
                    == AppNotificationSettings(
                        isAllowed: false, style: .alert, playsSound: false, showsBadge: true, lockScreen: .hide))
        }
    }

    @Test("GNOME's keys changed by gsettings while the daemon runs: SettingsChanged, and posts obey them")
    func followedLive() async throws {
        try await Self.withKeys { fixture, keys in
            let changes = try await fixture.client.signals(matching: BridgeProxy.signals([.settingsChanged]))
            let post: [String: DBusValue] = [
                PostKeys.desktopEntry.name: .string(Self.app), PostKeys.title.name: .string("Ann"),
            ]
            _ = try await fixture.post(post)
            _ = try await fixture.nextNotification()

            _ = try await keys.gsettings("set", Self.appPath, "enable", "false")
            let changed = try await withTimeout(waitingFor: "SettingsChanged after gsettings set") { () -> DBusValue in
                for await signal in changes where signal.arguments.first?.stringValue == Self.app {
                    if try AppSettingsRecord(signal.arguments[1]).settings.isAllowed == false {
                        return signal.arguments[1]
                    }
                }
                throw TestSupportError("the signals ended")
            }
            #expect(try AppSettingsRecord(changed).source == .gnome)
            let refused = await outcome { try await fixture.post(post) }
            #expect((refused.failure as? DBusFailure)?.name == BridgeError.notAllowed.rawValue)

            _ = try await keys.gsettings("set", "org.gnome.desktop.notifications", "show-banners", "false")
            try await withTimeout(waitingFor: "SettingsChanged for do-not-disturb") {
                for await signal in changes where signal.arguments.first?.stringValue == "" {
                    if try AppSettingsRecord(signal.arguments[1]).doNotDisturb { return }
                }
                throw TestSupportError("the signals ended")
            }
        }
    }

    @Test("time-sensitive, which GNOME has no key for, is kept in the bridge's file and read back with GNOME's")
    func timeSensitiveInTheFile() async throws {
        try await Self.withKeys { fixture, keys in
            let set = try await fixture.gdbus(
                BridgeMethod.setSettings.name, Self.app, "{'time-sensitive': <true>, 'sound': <false>}")
            #expect(set.status == 0, "\(set.standardError)")
            #expect(try await keys.gsettings("get", Self.appPath, "enable-sound-alerts") == "false")
            let file = fixture.directory.appendingPathComponent("config/notification-bridge/settings.ini")
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(text.contains("[app \(Self.app)]"), "\(text)")
            #expect(text.contains("\(SettingsKeys.timeSensitive.name)=true"), "\(text)")
            #expect(!text.contains("\(SettingsKeys.sound.name)="), "GNOME keeps the sound: \(text)")
            let record = try await BridgeProxy(connection: fixture.client).settings(app: Self.app)
            #expect(record.source == .gnome)
            #expect(record.settings.allowsTimeSensitive)
            #expect(!record.settings.playsSound)
        }
    }

    @Test("style none under GNOME Shell: sent, for GNOME Shell keeps it in its list without a banner")
    func styleNoneOnGNOMEShell() async throws {
        try await Self.withKeys(.gnomeShell) { fixture, keys in
            _ = try await fixture.gdbus(BridgeMethod.setSettings.name, Self.app, "{'style': <'none'>}")
            #expect(try await keys.gsettings("get", Self.appPath, "show-banners") == "false")
            _ = try await fixture.post([
                PostKeys.desktopEntry.name: .string(Self.app), PostKeys.title.name: .string("Quiet"),
            ])
            #expect(try await fixture.nextNotification().summary == "Quiet")
        }
    }
}

/// Whether GNOME's notification schemas are installed (Debian's gsettings-desktop-schemas).
let gnomeSchemasInstalled = FileManager.default.fileExists(
    atPath: "/usr/share/glib-2.0/schemas/org.gnome.desktop.notifications.gschema.xml")
