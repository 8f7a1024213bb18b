import DBusCore

/// A property of `io.github.NotificationBridge1`, read through `org.freedesktop.DBus.Properties`.
public enum BridgeProperty: String, CaseIterable, Sendable {
    /// `Version` (s): the daemon's version.
    case version = "Version"
    /// `ServerName` (s): the notification server that owns `org.freedesktop.Notifications` now.
    case serverName = "ServerName"
    /// `DesktopDoNotDisturb` (a{sv}, keys in ``DoNotDisturbKeys``): the desktop's do-not-disturb.
    case desktopDoNotDisturb = "DesktopDoNotDisturb"
    /// `ActiveFocus` (a{sv}, keys in ``FocusKeys``): the focus mode that is on.
    case activeFocus = "ActiveFocus"

    /// The property's D-Bus name, e.g. `Version`.
    public var name: String { rawValue }

    /// Its D-Bus type.
    public var signature: DBusSignature {
        switch self {
        case .version, .serverName: "s"
        case .desktopDoNotDisturb, .activeFocus: "a{sv}"
        }
    }

    /// What `org.freedesktop.DBus.Property.EmitsChangedSignal` says of a property: whether a change is announced.
    public enum ChangeAnnouncement: String, Sendable {
        /// `true`: `PropertiesChanged` carries each new value (the annotation's default, so it is left out).
        case emitted = "true"
        /// `const`: the value never changes while the daemon runs.
        case constant = "const"
    }

    /// Whether a change is announced: `Version` never changes while the daemon runs.
    public var changeAnnouncement: ChangeAnnouncement {
        switch self {
        case .version: .constant
        case .serverName, .desktopDoNotDisturb, .activeFocus: .emitted
        }
    }

    /// What it holds.
    public var documentation: String {
        switch self {
        case .version:
            "The daemon's version, as notification-bridged --version prints it."
        case .serverName:
            "The name of the notification server that owns org.freedesktop.Notifications now, as it gives it (dunst, "
                + "gnome-shell, Plasma); empty while there is none."
        case .desktopDoNotDisturb:
            "The desktop's own do-not-disturb, as its server or settings say it (GNOME's show-banners, Plasma's "
                + "Inhibited, dunst's pause, a mako mode named do-not-disturb or dnd, "
                + "SwayNotificationCenter's): keys " + InterfaceReference.names(DoNotDisturbKeys.all)
                + ". While it is on, notifications below urgency critical wait, or are dropped when their post says "
                + "so. PropertiesChanged and DesktopDoNotDisturbChanged announce each change."
        case .activeFocus:
            "The focus mode that is on, by hand or by its schedule: keys " + InterfaceReference.names(FocusKeys.all)
                + ". While it is on, a notification that it does not let through (by its app, its thread or its "
                + "level) waits, as under the desktop's do-not-disturb, and is shown when the mode ends. "
                + "PropertiesChanged announces each change."
        }
    }
}
