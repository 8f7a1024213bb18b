import DBusCore
import FreedesktopNotifications

/// A change of a ``NotificationServer``'s state, delivered by ``NotificationServer/events()`` so that tests and a UI
/// can await it instead of polling.
public enum NotificationServerEvent: Sendable, Hashable {
    /// A new notification arrived (`Notify` with no live `replaces_id`).
    case notified(ServedNotification)
    /// A live notification was replaced; `current.id` differs from `previous.id` when the profile gives a new id.
    case replaced(previous: ServedNotification, current: ServedNotification)
    /// A notification ended. `reason` is the one sent in `NotificationClosed`, or ``NotificationCloseReason/undefined``
    /// for a notification dropped without a signal (its sender left the bus, with a profile that drops those).
    case closed(ServedNotification, reason: NotificationCloseReason)
    /// A `Notify` was refused by the profile's rules (an odd action list on mako, a repeat on Plasma, …).
    case refused(RecordedCall, DBusFailure)
    /// A `Notify` came and is held unanswered, as ``NotificationServer/setNotifyAnswer(_:)`` asked: its sender is
    /// the only detail known yet.
    case held(sender: String)

    /// The notification the event is about, or `nil` for a refusal.
    public var notification: ServedNotification? {
        switch self {
        case .notified(let notification), .closed(let notification, _): notification
        case .replaced(_, let current): current
        case .refused, .held: nil
        }
    }
}
