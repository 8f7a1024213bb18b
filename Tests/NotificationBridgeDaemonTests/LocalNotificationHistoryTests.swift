import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridge
import NotificationBridgeAPI
import NotificationModel
import Testing

/// The Swift API's history: an app reads its own ended notifications and answers one it missed.
@Suite("LocalNotificationClient's history")
struct LocalNotificationHistoryTests {
    @Test("an app finds its expired notification in its history and answers it; the response comes to it")
    func answerMissed() async throws {
        try await SchedulingTests.withSetup { setup in
            let daemon = try await setup.startDaemon()
            defer { daemon.stop() }
            let client = try await LocalNotificationClient(connection: try await setup.bus.connect(), appName: "Kettle")
            try await client.running {
                var content = NotificationContent(title: "Tea", body: "Ready")
                content.userInfo = ["pot": .number(2)]
                content.actions = [NotificationAction(id: "pour", title: "Pour", activation: .background)]
                let id = try await client.post(content)
                let shown = try await setup.nextNotification()
                #expect(try await setup.server.expire(id: shown.id))

                let entry = try await withTimeout(waitingFor: "the expired notification in the app's history") {
                    while true {
                        if let entry = try await client.history().first(where: { $0.id == id }) { return entry }
                        try await Task.sleep(for: .milliseconds(20))
                    }
                }
                #expect(entry.ending == .expired && entry.isAnswerable)
                #expect(entry.notification.title == "Tea")

                try await client.act(id: id, action: "pour")
                let response = try await client.responses.first(waitingFor: "the response to the missed notification")
                #expect(response.notificationID == id && response.actionID == "pour")
                #expect(response.userInfo == ["pot": .number(2)])
                #expect(try await client.history().first { $0.id == id }?.ending == .responded)
            }
        }
    }
}
