import NotificationModel

/// What happens to a posted notification after the server took it: for owners that keep state about each
/// notification, such as the daemon.
///
/// Events of one notification come in the order they happened, on ``DesktopNotificationCenter/events``.
public enum NotificationEvent: Sendable, Hashable {
    /// The user responded; only with ``DesktopNotificationCenter/Configuration/deliversResponsesAsEvents``. A
    /// response that needs an unlocked session comes after the unlock.
    case responded(NotificationResponse)
    /// The notification left the server.
    case closed(DesktopNotificationCenter.Closure)
    /// The prompt for a text-input action ended without text: the user cancelled it, it could not start, or it was
    /// killed. No response comes for that action; when the notification's category reports dismissals, a `dismiss`
    /// response has been delivered first.
    case promptEnded(id: String)
    /// The notification was posted again to a new notification server (after the server restarted), under a new
    /// server id (see ``DesktopNotificationCenter/adopt(id:serverID:content:handler:)``).
    case reposted(DesktopNotificationCenter.DeliveredNotification)

    /// The center's id of the notification the event is about.
    public var notificationID: String {
        switch self {
        case .responded(let response): response.notificationID
        case .closed(let closure): closure.id
        case .promptEnded(let id): id
        case .reposted(let notification): notification.id
        }
    }
}
