import DBusTestSupport
import Foundation
import NotificationModel
import NotificationServerKit
import Testing

@testable import NotificationBridge

/// Snooze for apps that post through the center themselves: the same buttons as the daemon's, the notification put
/// off while the app runs, its handlers unaware unless the category asks.
@Suite("Snooze through the center")
struct CenterSnoozeTests {
    static let done = NotificationAction(id: "done", title: "Done", activation: .background)

    static func reminder(snooze seconds: [Int], reportsSnooze: Bool = false) -> NotificationCategory {
        var category = NotificationCategory(id: "reminder", actions: [done])
        category.snoozeIntervals = seconds.map(SnoozeInterval.init(seconds:))
        category.reportsSnooze = reportsSnooze
        return category
    }

    static var content: NotificationContent { NotificationContent(title: "Call Ann", categoryID: "reminder") }

    @Test("a press takes it off the screen; it comes back after the interval, and its answer is the first response")
    func comesBack() async throws {
        try await BridgeFixture.with(.xfce4Notifyd, categories: [Self.reminder(snooze: [1, 600])]) { fixture in
            let (id, served) = try await fixture.post(Self.content)
            #expect(
                served.actions.map(\.description) == ["done=Done", "snooze:1=Snooze 1 s", "snooze:600=Snooze 10 min"])
            try await fixture.server.invokeAction(id: served.id, key: "snooze:1")
            let back = try await fixture.nextServed(within: .seconds(30))
            #expect(back.summary == "Call Ann")
            #expect(back.id != served.id)
            try await fixture.server.invokeAction(id: back.id, key: "done")
            let response = try await fixture.nextResponse(within: .seconds(30))
            #expect(response.notificationID == id)
            #expect(response.actionID == "done")
        }
    }

    @Test("withdrawn while snoozed, it does not come back")
    func withdrawnWhileSnoozed() async throws {
        try await BridgeFixture.with(.xfce4Notifyd, categories: [Self.reminder(snooze: [1])]) { fixture in
            let (id, served) = try await fixture.post(Self.content)
            try await fixture.server.invokeAction(id: served.id, key: "snooze:1")
            try await withTimeout(waitingFor: "the snoozed notification to leave the screen") {
                while await !fixture.center.deliveredNotifications().isEmpty {
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
            await fixture.center.withdraw(id: id)
            // Given the time to come back, it does not: the next notification the server shows is the marker.
            try await Task.sleep(for: .seconds(2))
            _ = try await fixture.center.post(NotificationContent(title: "marker"))
            #expect(try await fixture.nextServed().summary == "marker")
        }
    }

    @Test("a category that asks for it gets the snooze as a response with action snooze")
    func reported() async throws {
        try await BridgeFixture.with(.xfce4Notifyd, categories: [Self.reminder(snooze: [1], reportsSnooze: true)]) {
            fixture in
            let (id, served) = try await fixture.post(Self.content)
            try await fixture.server.invokeAction(id: served.id, key: "snooze:1")
            let response = try await fixture.nextResponse(within: .seconds(30))
            #expect(response.notificationID == id)
            #expect(response.actionID == NotificationResponse.snoozeActionID)
            #expect(try await fixture.nextServed(within: .seconds(30)).summary == "Call Ann")
        }
    }
}
