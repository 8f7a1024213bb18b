import DBusCore
import NotificationModel

/// Which notifications `ListDelivered`, `ListPending` and `WithdrawAll` act on.
///
/// Keys: `app-name` (s) — the notifications posted under that app name, by any connection; without it, only those
/// posted by the calling connection. `category` (s) and `thread` (s) narrow the selection further.
package struct NotificationFilter: Sendable {
    static let keys = ["app-name", "category", "thread"]

    var appName: String?
    var category: String?
    var thread: String?

    package init(_ value: DBusValue) throws(DBusFailure) {
        let reader = try VariantDictionary(value, place: "filter", known: Self.keys)
        appName = try reader.string("app-name", example: "<'Mail'>")
        category = try reader.string("category", example: "<'org.example.mail.message'>")
        thread = try reader.string("thread", example: "<'conversation-42'>")
    }

    /// Whether a notification posted under `appName` by `poster`, showing `content`, is selected for `caller`.
    func selects(appName owner: String, poster: String, content: NotificationContent?, caller: String) -> Bool {
        if let appName {
            guard owner == appName else { return false }
        } else {
            guard poster == caller else { return false }
        }
        if let category, content?.categoryID != category { return false }
        if let thread, content?.threadID != thread { return false }
        return true
    }
}
