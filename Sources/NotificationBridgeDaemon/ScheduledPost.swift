import NotificationBridge
import NotificationModel

/// What the daemon keeps of a scheduled notification until it fires: what `Post` would have shown, where its
/// responses go, and the connection that posted it (which owns it, as it owns the notifications it shows).
struct ScheduledPost: Codable, Sendable {
    var content: NotificationContent
    var route: ResponseRoute
    var poster: String
}

/// The daemon's durable state: scheduled notifications and categories (delivered notifications are not kept: their
/// responses go to connections that do not outlive the daemon's run).
typealias DaemonStore = NotificationStore<ScheduledPost, NotificationCategory, ResponseRoute>
