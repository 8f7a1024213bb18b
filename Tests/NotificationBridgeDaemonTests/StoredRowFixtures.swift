import DBusCore
import Foundation
import NotificationBridge
import NotificationModel
import NotificationScheduling

@testable import NotificationBridgeDaemon

/// The values whose rows `StoredRowFormatTests` keeps as written by the format's first version: one of each kind of
/// row, with every part a row can hold set to something other than its default.
enum StoredRowFixtures {
    static let trigger = NotificationTrigger.calendar(
        CalendarMatch(weekdays: [.monday, .friday], hour: 9, minute: 30), repeats: true)

    static let content = NotificationContent(
        title: "Water the plants", body: "The <b>balcony</b> ones", appName: "Garden",
        desktopEntry: "org.example.Garden", icon: "plant", image: "file:///tmp/plant.png",
        defaultActionLabel: "Open", sound: .named("bell"), userInfo: ["bed": .string("north")],
        categoryID: "org.example.reminder", threadID: "balcony", urgency: .critical, timeout: .milliseconds(5000),
        isResident: true, isTransient: false, badge: 3,
        actions: [
            NotificationAction(id: "done", title: "Done", activation: .background, isDestructive: true),
            NotificationAction(
                id: "note", title: "Note", activation: .foreground,
                behavior: .textInput(.init(submitButtonTitle: "Save", placeholder: "What did you see?")),
                textInputFallback: .deliverWithoutText),
        ])

    static let route = ResponseRoute.command(["/usr/bin/notify-done", "--garden"])

    static var scheduled: ScheduledNotification<PendingPost> {
        let post = ScheduledPost(
            content: content, route: route, poster: ":1.7", hints: ["x-garden": .string("yes")], trigger: trigger)
        return ScheduledNotification(
            id: "n1", appName: "Garden", trigger: trigger, payload: PendingPost(post),
            scheduledAt: Date(timeIntervalSince1970: 1_750_000_000.5),
            lastFiredAt: Date(timeIntervalSince1970: 1_750_000_090.5), timeZoneIdentifier: "Europe/Berlin")
    }

    static let delivered = DeliveredPost(
        serverID: 42, server: ServerInstance(uniqueName: ":1.3", processID: 1234, processStart: 5678),
        content: NotificationContent(
            title: "Shown", body: "now", appName: "Garden", categoryID: "org.example.reminder"),
        route: .application(desktopEntry: "org.example.Mail", action: "reply"), poster: ":1.8",
        reportsDismissal: true, shownAt: Date(timeIntervalSince1970: 1_750_000_100.25))

    static let category = NotificationCategory(
        id: "org.example.reminder",
        actions: [
            NotificationAction(id: "done", title: "Done", activation: .background),
            NotificationAction(id: "later", title: "Later", activation: .foreground, isDestructive: true),
        ],
        minimalActions: [NotificationAction(id: "done", title: "Done", activation: .background)],
        reportsDismissal: true)
}
