import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationModel
import NotificationServerKit
import Testing

@testable import NotificationBridge

/// The user's per-app settings obeyed by a center that posts straight to the server, with no daemon in between: the
/// same rule the daemon follows, read from the bridge's own settings file.
@Suite("Settings at a center that posts directly")
struct CenterSettingsTests {
    @Test("a denied app posts nothing and is told how to allow it; allowing it in the file takes effect while it runs")
    func deniedThenAllowed() async throws {
        try await BridgeFixture.with(.dunst) { fixture in
            try writeSettings(fixture, "[app Mail]\nallowed=false\n")
            try await waitForSettings(fixture, "the center to read allowed=false") { $0?.isAllowed == false }

            let refused = await #expect(throws: NotificationNotAllowedError.self) {
                try await fixture.center.post(BridgeFixture.content())
            }
            #expect(refused?.app == "Mail")
            #expect(refused?.description.contains("notification-bridge settings Mail --allow") == true)
            #expect(await fixture.server.calls.filter { $0.member == "Notify" }.isEmpty, "nothing reached the server")

            try writeSettings(fixture, "[app Mail]\nallowed=true\n")
            try await waitForSettings(fixture, "the center to follow the edited file") { $0?.isAllowed == true }
            let (_, served) = try await fixture.post(BridgeFixture.content())
            #expect(served.summary == "Ann")
        }
    }

    @Test("alert stays until acted on and sound off suppresses the sound, as the server receives them")
    func alertWithoutSound() async throws {
        try await BridgeFixture.with(.dunst) { fixture in
            try writeSettings(fixture, "[app Mail]\nstyle=alert\nsound=false\n")
            try await waitForSettings(fixture, "the center to read style=alert") { $0?.style == .alert }

            var content = BridgeFixture.content()
            content.timeout = .milliseconds(5000)
            content.sound = .named("message-new-email")
            let (_, served) = try await fixture.post(content)
            #expect(served.expireTimeout == 0)
            #expect(served.isResident)
            #expect(served.hints["suppress-sound"]?.unwrappedVariant == .boolean(true))
            #expect(served.hints["sound-name"] == nil)
        }
    }

    @Test("with no settings written, the app is listed with the defaults and its notification goes out as asked")
    func defaultsChangeNothing() async throws {
        try await BridgeFixture.with(.dunst) { fixture in
            var content = BridgeFixture.content()
            content.timeout = .milliseconds(5000)
            let (_, served) = try await fixture.post(content)
            #expect(served.expireTimeout == 5000)
            #expect(!served.isResident)
            let file = try String(contentsOf: settingsFile(fixture), encoding: .utf8)
            #expect(file.contains("[app Mail]"), "the app that posted is listed for the user to change: \(file)")
            #expect(await fixture.center.currentSettings()?.style == .banner)
        }
    }

    @Test("do-not-disturb in the file: a time-sensitive post waits until time-sensitive=true is read; critical comes")
    func timeSensitiveThroughDoNotDisturb() async throws {
        try await BridgeFixture.with(.dunst) { fixture in
            try writeSettings(fixture, "[global]\ndo-not-disturb=true\n\n[app Mail]\nallowed=true\n")
            try await waitForSettings(fixture, "the center to read do-not-disturb") {
                $0?.style == NotificationAlertStyle.none
            }
            var content = BridgeFixture.content()
            content.interruptionLevel = .timeSensitive
            await #expect(throws: NotificationNotAllowedError.self) { try await fixture.center.post(content) }

            try writeSettings(fixture, "[global]\ndo-not-disturb=true\n\n[app Mail]\ntime-sensitive=true\n")
            try await waitForSettings(fixture, "the center to read time-sensitive=true") {
                $0?.allowsTimeSensitive == true
            }
            let (_, served) = try await fixture.post(content)
            #expect(served.summary == "Ann")

            var critical = BridgeFixture.content(title: "Smoke alarm")
            critical.interruptionLevel = .critical
            let (_, alarm) = try await fixture.post(critical)
            #expect(alarm.urgency == 2)
        }
    }

    private func settingsFile(_ fixture: BridgeFixture) -> URL {
        BridgeFixture.settingsDirectory(of: fixture.bus).appendingPathComponent("settings.ini")
    }

    private func writeSettings(_ fixture: BridgeFixture, _ text: String) throws {
        let directory = BridgeFixture.settingsDirectory(of: fixture.bus)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: settingsFile(fixture), options: .atomic)
    }

    /// Waits until the center's settings for its app satisfy `condition`: the file is followed through a file monitor,
    /// which reports an edit a moment later.
    private func waitForSettings(
        _ fixture: BridgeFixture, _ what: String,
        _ condition: @escaping @Sendable (AppNotificationSettings?) -> Bool
    ) async throws {
        let center = fixture.center
        try await withTimeout(.seconds(10), waitingFor: what) {
            while !condition(await center.currentSettings()) { try await Task.sleep(for: .milliseconds(50)) }
        }
    }
}
