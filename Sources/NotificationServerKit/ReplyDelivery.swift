import FreedesktopNotifications

/// How a server with KDE's inline-reply extension reports typed text, and what follows it.
///
/// The text always arrives as `NotificationReplied(u id, s text)` on `org.freedesktop.Notifications`; servers differ
/// in who receives it and in how the notification ends.
public struct ReplyDelivery: Sendable, Hashable {
    /// Who receives `NotificationReplied`.
    public var delivery: SignalDelivery
    /// Whether `ActionInvoked(id, "inline-reply")` follows the reply. No server checked sends it (Plasma and
    /// SwayNotificationCenter do not); it is there for scripting one that does.
    public var invokesAction: Bool
    /// The reason of the `NotificationClosed` that follows the reply, or `nil` when the notification stays.
    /// A resident notification stays either way.
    public var closeReason: NotificationCloseReason?

    /// Describes a reply behaviour.
    public init(delivery: SignalDelivery, invokesAction: Bool = false, closeReason: NotificationCloseReason?) {
        self.delivery = delivery
        self.invokesAction = invokesAction
        self.closeReason = closeReason
    }

    /// Plasma: `NotificationReplied` to the sender only, then closed with reason 3.
    public static let plasma = ReplyDelivery(delivery: .unicastToSender, closeReason: .closedByCall)
    /// SwayNotificationCenter: `NotificationReplied` broadcast, no `ActionInvoked`, then closed with reason 2.
    public static let swayNotificationCenter = ReplyDelivery(delivery: .broadcast, closeReason: .dismissed)
}
