import DBusCore
import NotificationBridgeAPI
import NotificationModel
import Testing

/// A history entry as `ListHistory` gives it, read back by a client.
@Suite("history entries on the wire")
struct HistoryEntryTests {
    @Test("an entry round-trips with its ending, time and response action; answerable follows the ending")
    func roundTrip() throws {
        var content = NotificationContent(title: "Invoice due", body: "17", appName: "Billing")
        content.actions = [NotificationAction(id: "pay", title: "Pay")]
        let listed = ListedNotification(id: "0123456789abcdef", post: NotificationPost(content: content))
        for ending in NotificationEnding.allCases {
            let entry = HistoryEntry(
                notification: listed, ending: ending, endedAtSeconds: 1_900_000_000,
                responseAction: ending == .responded ? "pay" : nil)
            let read = try #require(HistoryEntry(entry.value), "\(ending)")
            #expect(read.ending == ending && read.endedAtSeconds == 1_900_000_000)
            #expect(read.responseAction == entry.responseAction)
            #expect(read.id == listed.id && read.notification.title == "Invoice due")
            #expect(read.notification.post.content.actions.map(\.id) == ["pay"])
            let entries = try #require(WireEntries(entry.value))
            #expect(entries[HistoryKeys.answerable] == ending.isAnswerable)
            #expect(entries[HistoryKeys.endedAtISO8601] == "2030-03-17T17:46:40Z")
            #expect((ending.refusal == nil) == ending.isAnswerable, "a refusal says why exactly when one is refused")
        }
    }

    @Test("an entry without an ending this version knows is not read")
    func unknownEnding() {
        var entries = WireEntries()
        entries[ListedKeys.id] = "0123456789abcdef"
        entries[PostKeys.title] = "T"
        entries[HistoryKeys.endedAt] = 1
        #expect(HistoryEntry(entries.value) == nil)
        var withEnding = entries.value.stringKeyedEntries ?? [:]
        withEnding[HistoryKeys.ending.name] = .variant(.string("snoozed"))
        #expect(HistoryEntry(.vardict(withEnding.mapValues(\.unwrappedVariant))) == nil)
    }
}
