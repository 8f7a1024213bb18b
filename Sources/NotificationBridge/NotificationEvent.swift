import NotificationModel

/// What happens to a posted notification after the server took it, besides responses: for owners that keep state
/// about each notification.
///
/// Events of one notification come in the order they happened, on ``DesktopNotificationCenter/events``.
public enum NotificationEvent: Sendable, Hashable {
    /// The notification left the server.
    case closed(DesktopNotificationCenter.Closure)

    /// The center's id of the notification the event is about.
    public var notificationID: String {
        switch self {
        case .closed(let closure): closure.id
        }
    }
}
