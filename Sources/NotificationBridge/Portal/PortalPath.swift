import DBusCore

/// The portal's side of a ``DesktopNotificationCenter``: the client, the encoder for the portal's version, and the
/// router of its `ActionInvoked`.
struct PortalPath: Sendable {
    /// The portal on the center's connection.
    let client: PortalNotifications
    /// Encodes for the portal's version.
    var encoder: PortalEncoder
    /// Follows what was posted through the portal.
    var router = PortalRouter()

    /// Reads the portal's version and options.
    ///
    /// - Throws: `DBusFailure` saying that no notification portal answers, and what to install.
    static func open(
        on connection: DBusConnection, _ configuration: DesktopNotificationCenter.Configuration, promptAvailable: Bool
    ) async throws -> PortalPath {
        let client = PortalNotifications(connection: connection, timeout: configuration.serverTimeout)
        let info: PortalInfo
        do {
            info = try await client.info()
        } catch let failure as DBusFailure {
            throw DBusFailure(
                name: failure.name,
                message: "no XDG notification portal answered on the session bus (\(failure.message)); install "
                    + "xdg-desktop-portal with a backend for the desktop (xdg-desktop-portal-gtk, -kde, -gnome), or "
                    + "set the center's path to .freedesktop outside a sandbox")
        }
        var encoder = PortalEncoder(
            portal: info, rendering: configuration.rendering, promptAvailable: promptAvailable)
        encoder.activatesApp = configuration.activatableAppID != nil
        return PortalPath(client: client, encoder: encoder)
    }
}
