import DBusCore

extension DoNotDisturbReader {
    /// SwayNotificationCenter's control centre interface, served by the same connection as its notification server.
    static let swayNotificationCenterPath: DBusObjectPath = "/org/erikreider/swaync/cc"
    static let swayNotificationCenterInterface = "org.erikreider.swaync.cc"

    /// SwayNotificationCenter: `GetDnd() -> b` on `org.erikreider.swaync.cc`, and its `Subscribe` signal (sent at
    /// every change of do-not-disturb and of the number of notifications), whose second argument is the switch in
    /// every version (0.7 sends `(u count, b dnd, b cc_open)`, later ones `SubscribeV2` with one more).
    static func swayNotificationCenter(owner: String, connection: DBusConnection) -> DoNotDisturbReader {
        DoNotDisturbReader(
            source: .swaync,
            follow: { report in
                let changes = try await connection.signals(
                    matching: DBusMatchRule(
                        sender: owner, path: swayNotificationCenterPath, interface: swayNotificationCenterInterface)
                ) { signal -> Bool? in
                    guard signal.member.hasPrefix("Subscribe"), signal.arguments.count >= 2,
                        case .boolean(let isOn) = signal.arguments[1]
                    else { return nil }
                    return isOn
                }
                let read = { @Sendable () async throws -> Bool in
                    try await readSwayNotificationCenter(owner: owner, connection)
                }
                await report(try await firstReading(read, meanwhile: report))
                for await isOn in changes { await report(isOn) }
            }, read: nil)
    }

    private static func readSwayNotificationCenter(owner: String, _ connection: DBusConnection) async throws -> Bool {
        let reply = try await connection.call(
            destination: owner, path: swayNotificationCenterPath, interface: swayNotificationCenterInterface,
            method: "GetDnd", timeout: readTimeout)
        guard case .boolean(let isOn)? = reply.first else {
            throw DBusFailure(
                name: "org.freedesktop.DBus.Error.InvalidSignature", message: "GetDnd did not answer a boolean")
        }
        return isOn
    }
}
