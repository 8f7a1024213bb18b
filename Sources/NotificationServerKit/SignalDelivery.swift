/// Where a server sends the signals about a notification.
public enum SignalDelivery: Sendable, Hashable {
    /// Only to the connection that posted the notification (a signal with a destination), as GNOME Shell and dunst
    /// do. Other connections never see it, even with a matching rule.
    case unicastToSender
    /// To every connection with a matching rule, as Plasma, mako and SwayNotificationCenter do.
    case broadcast
}
