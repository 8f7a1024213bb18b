import NotificationBridgeAPI
import NotificationModel
import Testing

@testable import DBusCore
@testable import NotificationBridgeDaemon

/// The table's index of waiting calls, which a connection leaving the bus and the limit on waiting calls rely on
/// instead of walking every notification.
@Suite("Notification table")
struct NotificationTableTests {
    @Test("the waiting-call index and count follow every change: added, moved, answered, removed")
    func waitIndexFollowsChanges() {
        var table = NotificationTable()
        for id in ["a", "b", "c"] { table[id] = Self.entry() }
        #expect(table.awaited.isEmpty && table.waitCount == 0)

        table.update("a") { $0.waits = [Self.call(from: ":1.1"), Self.call(from: ":1.2")] }
        table.update("b") { $0.waits = [Self.call(from: ":1.1")] }
        #expect(table.awaited == ["a", "b"])
        #expect(table.waitCount == 3)

        table.update("a") { $0.waits.removeAll { $0.sender == ":1.1" } }
        #expect(table.awaited == ["a", "b"])
        #expect(table.waitCount == 2)

        table.update("b") { $0.waits = [] }
        #expect(table.awaited == ["a"])
        #expect(table.waitCount == 1)

        table["a"] = nil
        #expect(table.awaited.isEmpty, "a removed entry is no longer awaited")
        #expect(table.waitCount == 0)

        table.update("missing") { $0.waits = [Self.call(from: ":1.3")] }
        #expect(table.awaited.isEmpty, "updating an id the table does not have adds nothing")
    }

    private static func entry() -> TrackedNotification {
        TrackedNotification(
            .restored(stacked: false), appName: "App", poster: ":1.1", route: .poster(":1.1"),
            content: NotificationContent(title: "T"), reportsDismissal: false)
    }

    private static func call(from sender: String) -> DBusMethodCall {
        DBusMethodCall(
            sender: sender, path: DBusObjectPath(unchecked: "/"), interface: "io.github.NotificationBridge1",
            member: BridgeMethod.waitForResponse.name, arguments: [], replySerial: 1, expectsReply: false,
            outputSignature: "ss"
        ) { _ in }
    }
}
