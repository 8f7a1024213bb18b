import DBusCore

extension BridgeProxy {
    /// The `DesktopDoNotDisturb` property: the desktop's own do-not-disturb as the daemon reads it.
    ///
    /// - Throws: the `DBusFailure` of the call; a daemon of an earlier version answers
    ///   `org.freedesktop.DBus.Error.UnknownProperty`.
    public func desktopDoNotDisturb() async throws -> DesktopDoNotDisturbState {
        let reply = try await connection.call(
            destination: BridgeAPI.busName, path: BridgeAPI.objectPath, interface: "org.freedesktop.DBus.Properties",
            method: "Get",
            arguments: [.string(BridgeAPI.interfaceName), .string(BridgeProperty.desktopDoNotDisturb.name)],
            timeout: timeout)
        guard let state = reply.first.flatMap({ DesktopDoNotDisturbState($0.unwrappedVariant) }) else {
            throw DBusFailure(
                name: "org.freedesktop.DBus.Error.InvalidSignature",
                message: "\(BridgeProperty.desktopDoNotDisturb.name) is not a dictionary")
        }
        return state
    }
}
