import NotificationModel

/// What an interruption level becomes in a `Notify` call to one server: the urgency, sound and timeout that the
/// level stands for there. ``NotifyEncoder`` applies it; an urgency or timeout the app set itself stays as set.
package struct InterruptionLevelWire: Sendable, Hashable {
    /// The urgency sent when the app left the urgency at normal; `nil` sends the app's.
    package var urgency: NotificationUrgency?
    /// Whether the server is asked to play no sound (`suppress-sound`, and no `sound-name` or `sound-file`).
    package var isSilent: Bool
    /// The timeout sent when the app left it at the server's default; `nil` sends the app's.
    package var timeout: NotificationTimeout?

    /// Makes a row of the table.
    package init(urgency: NotificationUrgency? = nil, isSilent: Bool = false, timeout: NotificationTimeout? = nil) {
        self.urgency = urgency
        self.isSilent = isSilent
        self.timeout = timeout
    }

    /// Today's behaviour: the app's urgency, sound and timeout.
    package static let asTheAppAsked = InterruptionLevelWire()
}

extension NotificationServerInfo {
    /// How long a passive notification stays on a server that cannot keep it quietly in a list: short, since it
    /// only says something the user may read later.
    public static let passiveTimeout = NotificationTimeout.milliseconds(4000)

    /// Whether the server keeps a low-urgency notification in its list without showing a banner: GNOME Shell does
    /// (its message tray takes it without a banner); every other known server shows low urgency as a popup, some with
    /// colours or a timeout of their own, or leaves it to the user's settings whether to keep it (Plasma).
    public var keepsLowUrgencyQuietly: Bool {
        Self.equalIgnoringASCIICase(name, "gnome-shell")
    }

    /// What `level` becomes on this server: the table of every level on every known server.
    ///
    /// | level | GNOME Shell | every other server |
    /// |---|---|---|
    /// | passive | urgency low (kept in the list, no banner), no sound | no sound, ``passiveTimeout`` |
    /// | active, time-sensitive | as the app asked | as the app asked |
    /// | critical | urgency critical, never expires | urgency critical, never expires |
    ///
    /// No server reads a hint for time-sensitive notifications: the level decides what passes a do-not-disturb and
    /// is otherwise sent as active. A timeout or an urgency the app set stays as set, except that critical is always
    /// urgency critical.
    package func wire(for level: NotificationInterruptionLevel) -> InterruptionLevelWire {
        switch level {
        case .passive where keepsLowUrgencyQuietly: InterruptionLevelWire(urgency: .low, isSilent: true)
        case .passive: InterruptionLevelWire(isSilent: true, timeout: Self.passiveTimeout)
        case .active, .timeSensitive: .asTheAppAsked
        case .critical: InterruptionLevelWire(urgency: .critical, timeout: .never)
        }
    }
}
