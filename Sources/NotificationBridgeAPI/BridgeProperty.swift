import DBusCore

/// A property of `io.github.NotificationBridge1`, read through `org.freedesktop.DBus.Properties`.
public enum BridgeProperty: String, CaseIterable, Sendable {
    /// `Version` (s): the daemon's version.
    case version = "Version"
    /// `ServerName` (s): the notification server that owns `org.freedesktop.Notifications` now.
    case serverName = "ServerName"
    /// `DesktopDoNotDisturb` (a{sv}, keys in ``DoNotDisturbKeys``): the desktop's do-not-disturb.
    case desktopDoNotDisturb = "DesktopDoNotDisturb"

    /// The property's D-Bus name, e.g. `Version`.
    public var name: String { rawValue }

    /// Its D-Bus type.
    public var signature: DBusSignature {
        switch self {
        case .version, .serverName: "s"
        case .desktopDoNotDisturb: "a{sv}"
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
            "The desktop's own do-not-disturb, as the notification server or the desktop's settings say it (GNOME's "
                + "show-banners, Plasma's Inhibited, dunst's pause, a mako mode named do-not-disturb or dnd, "
                + "SwayNotificationCenter's): keys " + InterfaceReference.keys(DoNotDisturbKeys.all)
                + ". While it is on, notifications that do not pass it (all but urgency critical) wait, or are dropped "
                + "when their post says so. PropertiesChanged and DesktopDoNotDisturbChanged announce each change."
        }
    }
}
