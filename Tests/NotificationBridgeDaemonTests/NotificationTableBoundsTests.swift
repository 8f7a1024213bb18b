import DBusTestSupport
import Logging
import NotificationBridgeAPI
import NotificationModel
import Testing

@testable import NotificationBridgeDaemon

/// What the table counts and remembers so that its bounds are per app and say what they dropped: scheduled
/// notifications by app, and the ids of the ended notifications it let go of.
@Suite("Notification table bounds")
struct NotificationTableBoundsTests {
    @Test("scheduled notifications are counted by app through every change: added, restored, fired, ended, removed")
    func scheduledCountByApp() {
        var table = NotificationTable()
        table["a"] = Self.entry(app: "Mail", scheduled: true)
        table["b"] = Self.entry(app: "Mail", scheduled: true)
        table["c"] = Self.entry(app: "Chat", scheduled: true)
        table["d"] = Self.entry(app: "Chat", scheduled: false)
        table.markScheduled("e") { Self.entry(app: "Chat", scheduled: false) }
        table.markScheduled("e") { Self.entry(app: "Chat", scheduled: false) }
        #expect(table.scheduledCount(of: "Mail") == 2)
        #expect(table.scheduledCount(of: "Chat") == 2, "marking one twice counts it once")

        table.update("a") { $0.isScheduled = false }
        table["c"] = nil
        table.update("d") { $0.isScheduled = true }
        #expect(table.scheduledCount(of: "Mail") == 1)
        #expect(table.scheduledCount(of: "Chat") == 2)
        #expect(table.scheduledCount(of: "Other") == 0)
    }

    @Test("an ended notification let go of beyond the most kept is told apart from an id never issued")
    func forgottenIDsExpire() {
        var table = NotificationTable()
        let first = "ffffffffffffff01"
        table[first] = Self.entry(app: "Mail", scheduled: false)
        table.update(first) { _ = $0.handle(.ended("was dismissed by the user"), id: first) }
        for index in 0..<NotificationTable.finishedCapacity {
            let id = String(index, radix: 16).leftPadded(to: 16)
            table[id] = Self.entry(app: "Mail", scheduled: false)
            table.update(id) { _ = $0.handle(.ended("was withdrawn"), id: id) }
        }
        #expect(table[first] == nil, "the oldest ended one was let go of")
        #expect(table.isForgotten(first))
        #expect(table.missing(first).name == BridgeError.expired.rawValue)
        #expect(table.missing(first).message.contains("no longer kept"), "\(table.missing(first).message)")
        #expect(table.missing("fffffffffffffe02").name == BridgeError.unknownNotification.rawValue)
        #expect(!table.isForgotten("fffffffffffffe02"))
    }

    @Test("a kept response that reached nobody is logged at notice level when it is let go of, without its text")
    func lettingGoOfAnUndeliveredResponseIsLogged() {
        let entries = RecordingLogHandler.Entries()
        var table = NotificationTable()
        table.logger = Logger(label: "test") { _ in RecordingLogHandler(entries: entries) }
        let kept = "ffffffffffffff03"
        table[kept] = Self.entry(app: "Bank", scheduled: false)
        table.update(kept) { entry in
            entry.keptResponses = [
                KeptResponse(
                    response: BridgeResponse(notificationID: kept, actionID: "reply", text: "123456"),
                    textRecipient: .firstCall)
            ]
            _ = entry.handle(.ended("was closed"), id: kept)
        }
        for index in 0..<NotificationTable.finishedCapacity {
            let id = String(index, radix: 16).leftPadded(to: 16)
            table[id] = Self.entry(app: "Mail", scheduled: false)
            table.update(id) { _ = $0.handle(.ended("was withdrawn"), id: id) }
        }
        let notices = entries.all.filter { $0.0 == .notice }.map(\.1)
        #expect(notices.count == 1, "\(entries.all)")
        #expect(notices.first?.contains(kept) == true && notices.first?.contains("Error.Expired") == true)
        #expect(!entries.all.contains { $0.1.contains("123456") }, "typed text is never logged")
    }

    @Test("the forgotten ids are bounded: the oldest go first beyond the capacity")
    func forgottenIDsAreBounded() {
        var forgotten = ForgottenIDs(capacity: 3)
        for id in ["a", "b", "c", "d"] { forgotten.insert(id) }
        #expect(forgotten.count == 3)
        #expect(!forgotten.contains("a") && forgotten.contains("b") && forgotten.contains("d"))
        forgotten.remove("c")
        #expect(!forgotten.contains("c"))
    }

    private static func entry(app: String, scheduled: Bool) -> TrackedNotification {
        var entry = TrackedNotification(
            scheduled ? .scheduled : .restored(stacked: false), appName: app, poster: ":1.1", route: .poster(":1.1"),
            content: NotificationContent(title: "T"), reportsDismissal: false)
        entry.isScheduled = scheduled
        return entry
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
