import DBusCore

/// Why `notification-terminal-server` could not start; the message says what to do.
public enum TerminalServerError: Error, Sendable, CustomStringConvertible {
    /// The bus could not be reached.
    case cannotConnect(bus: DBusConnection.Bus, reason: String)
    /// Another notification server owns `org.freedesktop.Notifications`.
    case nameTaken(owner: String?, triedReplacing: Bool)

    /// What went wrong and what to do about it.
    public var description: String {
        switch self {
        case .cannotConnect(let bus, let reason):
            let which =
                switch bus {
                case .session: "the session bus"
                case .system: "the system bus"
                case .address(let address): "the bus at \(address)"
                }
            return "cannot connect to \(which): \(reason). Over SSH or outside a desktop, start one with "
                + "'dbus-run-session -- notification-terminal-server', or give a bus with --address"
        case .nameTaken(let owner, let triedReplacing):
            let who = "org.freedesktop.Notifications is owned by \(owner ?? "another program")"
            return triedReplacing
                ? "\(who), which does not let itself be replaced; stop that notification server first"
                : "\(who): another notification server is running. Stop it, use --replace to take over from it, "
                    + "or serve a private bus with --address"
        }
    }
}
