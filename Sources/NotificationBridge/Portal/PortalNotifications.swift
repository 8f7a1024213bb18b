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

    private static let path: DBusObjectPath = "/org/freedesktop/portal/desktop"

    private func call(_ interface: String, _ method: String, _ arguments: [DBusValue]) async throws -> [DBusValue] {
        try await connection.call(
            destination: PortalWire.busName, path: Self.path, interface: interface, method: method,
            arguments: arguments, timeout: timeout)
    }

    private func property(_ name: String) async throws -> DBusValue {
        let reply = try await call(
            "org.freedesktop.DBus.Properties", "Get", [.string(PortalWire.interface), .string(name)])
        guard let value = reply.first else {
            throw DBusFailure(name: DBusFailure.Name.invalidArgs, message: "the portal's \(name) is empty")
        }
        return value.unwrappedVariant
    }

    /// Shows a notification, or replaces the one with the same `id`.
    package func addNotification(id: String, _ notification: [String: DBusValue]) async throws {
        _ = try await call(PortalWire.interface, "AddNotification", [.string(id), .vardict(notification)])
    }

    /// Withdraws a notification.
    package func removeNotification(id: String) async throws {
        _ = try await call(PortalWire.interface, "RemoveNotification", [.string(id)])
    }

    /// Reads the interface's `version` and, from version 2, its `SupportedOptions`.
    ///
    /// - Throws: `DBusFailure` when no portal answers or it has no notification interface.
    package func info() async throws -> PortalInfo {
        guard case .uint32(let version) = try await property("version") else {
            throw DBusFailure(
                name: DBusFailure.Name.invalidArgs,
                message: "the portal's version is not a uint32; is org.freedesktop.portal.Desktop a real portal?")
        }
        var options: [String: DBusValue] = [:]
        if version >= 2, let supported = try? await property("SupportedOptions").stringKeyedEntries {
            options = supported.mapValues(\.unwrappedVariant)
        }
        return PortalInfo(
            version: version, supportedOptions: options, backendVersion: version >= 2 ? await backendVersion() : nil)
    }

    /// The lowest `version` of the desktop's portal backends that run (`org.freedesktop.impl.portal.desktop.NAME`)
    /// and answer for notifications; `nil` when none can be seen, as from inside a sandbox, whose bus lists only what
    /// it may talk to.
    package func backendVersion() async -> UInt32? {
        guard
            case .array(_, let names)? = try? await connection.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                method: "ListNames", timeout: timeout
            ).first
        else { return nil }
        var lowest: UInt32?
        for name in names.compactMap(\.stringValue) where name.hasPrefix(PortalWire.backendNamePrefix) {
            let reply = try? await connection.call(
                destination: name, path: Self.path, interface: "org.freedesktop.DBus.Properties", method: "Get",
                arguments: [.string(PortalWire.backendInterface), .string("version")], timeout: timeout)
            guard case .uint32(let version)? = reply?.first?.unwrappedVariant else { continue }
            lowest = min(lowest ?? version, version)
        }
        return lowest
    }

    /// The portal's `ActionInvoked` signals, in order, from its current owner only.
    func signals() async throws -> AsyncStream<PortalSignal> {
        try await connection.signals(
            matching: DBusMatchRule(sender: PortalWire.busName, path: Self.path, interface: PortalWire.interface)
        ) { PortalSignal($0) }
    }
}
