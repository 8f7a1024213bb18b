import DBusTestSupport
import NotificationBridgeAPI
import NotificationServerKit
import Testing

@testable import NotificationBridge

/// The desktop's do-not-disturb as an app reads it from a center that posts directly.
@Suite("The desktop's do-not-disturb at a center")
struct CenterDoNotDisturbTests {
    @Test("a server whose switch cannot be read (no dunst control interface) counts as off, with no source")
    func unreadableIsOff() async throws {
        try await BridgeFixture.with(.dunst) { fixture in
            let state = try await withTimeout(waitingFor: "the center to read the desktop's do-not-disturb") {
                await fixture.center.desktopDoNotDisturb()
            }
            #expect(state == DesktopDoNotDisturbState(isOn: false, source: ""))
            // Notifications go out as before.
            let (_, served) = try await fixture.post(BridgeFixture.content())
            #expect(served.summary == "Ann")
        }
    }
}
