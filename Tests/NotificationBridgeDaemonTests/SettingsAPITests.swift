import DBusCore
import DBusTestSupport
import NotificationBridge
import NotificationBridgeAPI
import NotificationModel
import Testing

/// The Swift API's counterparts of `registerUserNotificationSettings` and `currentUserNotificationSettings`, and the
/// stream of changes, against the daemon.
@Suite("Notification settings through the Swift API")
struct SettingsAPITests {
    @Test("what the app asks for is the ceiling; the user's choice the limit; changes arrive on the stream")
    func registerReadFollow() async throws {
        try await DaemonFixture.with { fixture in
            let client = try await LocalNotificationClient(connection: try await fixture.bus.connect(), appName: "Mail")
            try await client.running {
                let message = NotificationCategory(
                    id: "message", actions: [NotificationAction(id: "reply", title: "Reply", activation: .background)])
                try await client.registerSettings([.alert, .badge], categories: [message])
                let categories = try await fixture.call(BridgeMethod.listCategories.name)
                #expect("\(categories)".contains("'message'"))
                #expect(
                    try await client.currentSettings()
                        == AppNotificationSettings(
                            isAllowed: true, style: .banner, playsSound: false, showsBadge: true, lockScreen: .show))

                let changes = try await client.settingsChanges()
                let denied = try await fixture.gdbus(BridgeMethod.setSettings.name, "Mail", "{'allowed': <false>}")
                #expect(denied.status == 0, "\(denied.standardError)")
                let changed = try await withTimeout(waitingFor: "the settings change on the stream") {
                    () -> AppNotificationSettings in
                    for await settings in changes { return settings }
                    throw TestSupportError("the stream ended")
                }
                #expect(changed.isAllowed == false)
                let refused = await outcome { try await client.post(NotificationContent(title: "Ann")) }
                #expect((refused.failure as? DBusFailure).flatMap { BridgeError($0) } == .notAllowed)
            }
        }
    }
}
