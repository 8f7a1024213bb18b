/// Where a ``DesktopNotificationCenter`` sends its notifications.
public enum NotificationPath: String, Sendable, Hashable, CaseIterable {
    /// The desktop's notification server, `org.freedesktop.Notifications`: every feature the server has.
    case freedesktop
    /// The XDG notification portal, `org.freedesktop.portal.Notification` on `org.freedesktop.portal.Desktop`: what a
    /// sandboxed (Flatpak, Snap) app may use without extra permissions, with what the portal's version allows.
    case portal

    /// The path for this process: the portal inside a sandbox (``Sandbox/current``), the notification server
    /// otherwise.
    public static var detected: NotificationPath {
        Sandbox.current == nil ? .freedesktop : .portal
    }
}
