import Foundation
import NotificationModel
import NotificationScheduling
import Testing

@testable import NotificationBridge
@testable import NotificationBridgeDaemon
@testable import NotificationStore

/// Start-up reads each scheduled notification's row as the summary the daemon keeps (``PendingPost``), by hand; any
/// other reader goes through `Codable`. Both keep the same: who posted it, where its responses go, its category and
/// thread, and the scheduling.
@Suite("Pending notifications read back from their rows")
struct PendingPostRowTests {
    static let routes: [ResponseRoute] = [
        .poster(":1.42"), .command(["/usr/bin/notify-done", "--id", "ü"]),
        .application(desktopEntry: "org.example.Mail", action: "reply"),
        .application(desktopEntry: "org.example.Mail", action: nil),
    ]

    @Test("every route, with and without a category and thread, reads as it was written", arguments: routes)
    func summaries(route: ResponseRoute) throws {
        let selections: [(category: String?, thread: String?)] = [
            ("org.example.reminder", "balcony"), (nil, nil), (nil, "kitchen"),
        ]
        for (category, thread) in selections {
            let trigger = NotificationTrigger.timeInterval(seconds: 90, repeats: true)
            let post = ScheduledPost(
                content: NotificationContent(title: "Water the plants", categoryID: category, threadID: thread),
                route: route, poster: ":1.7", trigger: trigger)
            let written = ScheduledNotification(
                id: "n1", appName: category == nil ? nil : "Garden", trigger: trigger, payload: PendingPost(post),
                scheduledAt: Date(timeIntervalSince1970: 1_750_000_000.5),
                lastFiredAt: thread == nil ? nil : Date(timeIntervalSince1970: 1_750_000_090.5),
                timeZoneIdentifier: "Europe/Berlin")

            let byHand = try RowDecoder().decode(
                ScheduledNotification<PendingPost>.self, from: RowEncoder().encode(written))
            let fromJSON = try JSONDecoder().decode(
                ScheduledNotification<PendingPost>.self, from: JSONEncoder().encode(written))
            for read in [byHand, fromJSON] {
                #expect(read.id == "n1" && read.appName == written.appName && read.trigger == trigger)
                #expect(read.scheduledAt == written.scheduledAt && read.lastFiredAt == written.lastFiredAt)
                #expect(read.timeZoneIdentifier == "Europe/Berlin")
                #expect(read.payload.poster == ":1.7" && read.payload.route == route)
                #expect(read.payload.selection.value.categoryID == category)
                #expect(read.payload.selection.value.threadID == thread)
                #expect(read.payload.post == nil, "the summary keeps no content")
            }
        }
    }

    @Test("a stored route with none of its keys is refused by both readings, naming the route")
    func routeWithoutKeys() throws {
        struct Row: Codable {
            var id = "n1"
            var trigger = NotificationTrigger.timeInterval(seconds: 90, repeats: false)
            var payload = Payload()
            var scheduledAt = 1_750_000_000.0
            struct Payload: Codable {
                var content = [String: String]()
                var route = ["elsewhere": "x"]
                var poster = ":1.7"
            }
            enum CodingKeys: String, CodingKey {
                case id, trigger, payload
                case scheduledAt = "scheduled-at"
            }
        }
        let byHand = #expect(throws: DecodingError.self) {
            try RowDecoder().decode(ScheduledNotification<PendingPost>.self, from: RowEncoder().encode(Row()))
        }
        let fromJSON = #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(ScheduledNotification<PendingPost>.self, from: JSONEncoder().encode(Row()))
        }
        for error in [byHand, fromJSON].compactMap(\.self) {
            let reason = DaemonStore.describe(error)
            #expect(reason == "at payload.route: a route needs 'poster', 'exec' or 'app-action'", "\(reason)")
        }
    }
}
