import DBusCore

/// A property of `io.github.NotificationBridge1`, read through `org.freedesktop.DBus.Properties`.
public enum BridgeProperty: String, CaseIterable, Sendable {
    /// `Version` (s): the daemon's version.
    case version = "Version"
    /// `ServerName` (s): the notification server that owns `org.freedesktop.Notifications` now.
    case serverName = "ServerName"

    /// The property's D-Bus name, e.g. `Version`.
    public var name: String { rawValue }

    /// Its D-Bus type.
    public var signature: DBusSignature {
        switch self {
        case .version, .serverName: "s"
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
        }
    }
}
