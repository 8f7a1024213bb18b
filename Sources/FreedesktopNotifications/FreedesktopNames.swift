import DBusCore

/// Where a notification server lives on the session bus, and the names of its methods, as the Desktop Notifications
/// Specification gives them.
package enum FreedesktopNames {
    /// The bus name a notification server owns.
    package static let busName = "org.freedesktop.Notifications"
    /// The object path it serves.
    package static let path: DBusObjectPath = "/org/freedesktop/Notifications"
    /// The interface it serves and emits its signals on.
    package static let interface = "org.freedesktop.Notifications"

    /// The methods of the interface.
    package enum Method: String, Sendable, CaseIterable {
        /// `Notify(susssasa{sv}i) -> u`: shows or replaces a notification (``NotifyRequest``).
        case notify = "Notify"
        /// `CloseNotification(u)`.
        case closeNotification = "CloseNotification"
        /// `GetCapabilities() -> as` (``Capability``).
        case getCapabilities = "GetCapabilities"
        /// `GetServerInformation() -> ssss`: name, vendor, version, specification version.
        case getServerInformation = "GetServerInformation"
    }
}
