import DBusCore

/// A typed client of the XDG notification portal (`org.freedesktop.portal.Notification`) on one connection.
///
/// The portal sends `ActionInvoked` only to the connection that added the notification, so posting and listening
/// share one connection; signals are taken from the portal's current owner only.
package struct PortalNotifications: Sendable {
    /// The connection used for calls and signals.
    package let connection: DBusConnection
    /// How long a call may take.
    package var timeout: Duration

    /// Makes a client on `connection`.
    package init(connection: DBusConnection, timeout: Duration = .seconds(10)) {
        self.connection = connection
        self.timeout = timeout
    }

    private func call(_ interface: String, _ method: String, _ arguments: [DBusValue]) async throws -> [DBusValue] {
        try await connection.call(
            destination: PortalWire.busName, path: PortalInfo.path, interface: interface, method: method,
            arguments: arguments, timeout: timeout)
    }

    /// Shows a notification, or replaces the one with the same `id`.
    package func addNotification(id: String, _ notification: [String: DBusValue]) async throws {
        _ = try await call(PortalWire.interface, "AddNotification", [.string(id), .vardict(notification)])
    }

    /// Withdraws a notification.
    package func removeNotification(id: String) async throws {
        _ = try await call(PortalWire.interface, "RemoveNotification", [.string(id)])
    }

    /// Reads the interface's `version`, from version 2 its `SupportedOptions`, and the backend's version where the
    /// bus shows it (``PortalInfo/read(on:timeout:)``).
    ///
    /// - Throws: `DBusFailure` when no portal answers or it has no notification interface.
    package func info() async throws -> PortalInfo {
        try await PortalInfo.read(on: connection, timeout: timeout)
    }

    /// The portal's `ActionInvoked` signals, in order, from its current owner only.
    func signals() async throws -> AsyncStream<PortalSignal> {
        try await connection.signals(
            matching: DBusMatchRule(sender: PortalWire.busName, path: PortalInfo.path, interface: PortalWire.interface)
        ) { PortalSignal($0) }
    }
}
