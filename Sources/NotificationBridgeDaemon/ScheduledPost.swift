import NotificationBridge
import NotificationModel

/// What the daemon keeps of a scheduled notification until it fires: what `Post` would have shown, where its
/// responses go, and the connection that posted it (which owns it, as it owns the notifications it shows).
struct ScheduledPost: Codable, Sendable {
    var content: NotificationContent
    var route: ResponseRoute
    var poster: String
}

/// What the daemon keeps of a notification that is showing, so that after a restart the response to it still reaches
/// its command, its app, or the connection attached as its app (see ``DeliveredPost``).
typealias DaemonStore = NotificationStore<ScheduledPost, NotificationCategory, DeliveredPost>
