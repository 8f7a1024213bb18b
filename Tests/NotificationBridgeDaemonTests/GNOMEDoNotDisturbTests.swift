import DBusCore
import DBusTestSupport
import NotificationBridgeAPI
import NotificationServerKit
import Testing

/// GNOME's do-not-disturb (`show-banners` false) read by the daemon's own watcher, as it runs under GNOME Shell: the
/// real schemas and GLib's key-file backend stand for dconf, `gsettings` for the Settings app's switch.
@Suite("GNOME's do-not-disturb", .enabled(if: gnomeSchemasInstalled))
struct GNOMEDoNotDisturbTests {
    @Test("show-banners false holds a notification back, a critical one goes through, true shows the held one once")
    func followedLive() async throws {
        try await GNOMESettingsTests.withKeys(.gnomeShell) { fixture, keys in
            let proxy = BridgeProxy(connection: fixture.client)
            _ = try await keys.gsettings("set", "org.gnome.desktop.notifications", "show-banners", "false")
            try await withTimeout(waitingFor: "the daemon to read GNOME's do-not-disturb as on") {
                while try await proxy.desktopDoNotDisturb() != DesktopDoNotDisturbState(isOn: true, source: "gnome") {
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
            _ = try await fixture.post([PostKeys.title.name: .string("Ann")])
            _ = try await fixture.post([
                PostKeys.title.name: .string("Alarm"), PostKeys.urgency.name: .string("critical"),
            ])
            #expect(try await fixture.nextNotification().summary == "Alarm")

            _ = try await keys.gsettings("set", "org.gnome.desktop.notifications", "show-banners", "true")
            #expect(try await fixture.nextNotification().summary == "Ann")
            _ = try await fixture.post([PostKeys.title.name: .string("Bob")])
            #expect(try await fixture.nextNotification().summary == "Bob")
            #expect(try await proxy.desktopDoNotDisturb() == DesktopDoNotDisturbState(isOn: false, source: "gnome"))
        }
    }
}
