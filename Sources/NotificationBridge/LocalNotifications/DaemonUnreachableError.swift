import DBusCore
import NotificationBridgeAPI

/// ``LocalNotificationClient`` could not reach the `notification-bridged` daemon.
///
/// Inside a Flatpak the session bus is filtered: an app may talk only to the names its manifest grants, and the
/// daemon's name is hidden (the bus answers as if nothing owned it) until the manifest has
/// `--talk-name=io.github.NotificationBridge`. Inside a Snap, AppArmor refuses the call unless a plug allows it.
public struct DaemonUnreachableError: Error, CustomStringConvertible, Sendable {
    /// The sandbox the app runs in, if any.
    public let sandbox: Sandbox?
    /// The bus's answer.
    public let failure: DBusFailure

    /// Makes the error for a failed call in `sandbox`.
    public init(failure: DBusFailure, sandbox: Sandbox?) {
        self.failure = failure
        self.sandbox = sandbox
    }

    /// Whether `failure` says that the daemon's name cannot be reached (not that the daemon refused the call).
    static func isUnreachable(_ failure: DBusFailure) -> Bool {
        [
            "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
            "org.freedesktop.DBus.Error.AccessDenied",
        ].contains(failure.name)
    }

    /// What went wrong and what to do.
    public var description: String {
        let name = BridgeAPI.busName
        switch sandbox {
        case .flatpak:
            return "the app runs in a Flatpak sandbox, which hides \(name) (\(failure.message)): add "
                + "'--talk-name=\(name)' to the manifest's finish-args (or run 'flatpak override --user "
                + "--talk-name=\(name) APP-ID'), and install notification-bridged on the host; notifications shown "
                + "now need no permission: DesktopNotificationCenter posts them through the XDG portal"
        case .snap:
            return "the app runs in a Snap, whose confinement refuses calls to \(name) (\(failure.message)): "
                + "connect a dbus plug for \(name) on the session bus, and install notification-bridged on the "
                + "host; DesktopNotificationCenter posts notifications shown now through the XDG portal"
        case nil:
            return "no notification-bridged daemon answers as \(name) on the session bus (\(failure.message)): "
                + "install the notification-bridge package, which starts it by D-Bus activation, or start "
                + "notification-bridged yourself"
        }
    }
}
