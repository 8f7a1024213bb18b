import DBusCore
import Foundation
import NotificationModel

/// A notification as the daemon lists it (`ListPending`, `ListDelivered`, the `Fired` signal): its id, the main
/// fields, and every key it was posted with.
public struct ListedNotification: Sendable, Hashable {
    /// The daemon's id for it.
    public var id: String
    /// The title.
    public var title: String
    /// The text below the title.
    public var body: String
    /// The app it belongs to.
    public var appName: String?
    /// When it fires next; `nil` for one that is showing or was handed over.
    public var nextFireDate: Date?
    /// Every key, as `Post` took it (see ``BridgeWireFormat``), scheduling keys included for pending ones.
    public var entries: [String: DBusValue]

    /// Reads one `a{sv}` of the daemon's lists; `nil` when it has no id.
    public init?(_ value: DBusValue) {
        guard let raw = value.stringKeyedEntries else { return nil }
        let entries = raw.mapValues(\.unwrappedVariant)
        guard let id = entries["id"]?.stringValue else { return nil }
        self.id = id
        self.title = entries["title"]?.stringValue ?? ""
        self.body = entries["body"]?.stringValue ?? ""
        self.appName = entries["app-name"]?.stringValue
        if case .int64(let seconds)? = entries["next-fire-date"] {
            self.nextFireDate = Date(timeIntervalSince1970: TimeInterval(seconds))
        }
        self.entries = entries
    }
}
