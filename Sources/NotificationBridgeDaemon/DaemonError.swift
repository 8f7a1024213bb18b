import NotificationBridgeAPI

/// Why the daemon could not start or had to stop; the message says what to do.
public enum DaemonError: Error, Sendable, CustomStringConvertible {
    /// The bus could not be reached.
    case cannotConnect(String)
    /// Another connection owns `io.github.NotificationBridge` and does not let it go.
    case nameTaken(owner: String?)
    /// The connection to the bus closed while the daemon was serving.
    case busClosed
    /// The folder of the daemon's state cannot be created or read.
    case cannotOpenState(String)

    /// What went wrong and what to do about it.
    public var description: String {
        switch self {
        case .cannotConnect(let reason):
            "cannot connect to the session bus (\(reason)); run it inside a desktop session, or set "
                + "DBUS_SESSION_BUS_ADDRESS"
        case .nameTaken(let owner):
            "\(BridgeAPI.busName) is already owned by \(owner ?? "another connection") (another "
                + "notification-bridged?); stop it, or start this one with --replace"
        case .busClosed:
            "the connection to the session bus closed (the bus went away); stopping. D-Bus activation or systemd "
                + "starts notification-bridged again when a session bus is back"
        case .cannotOpenState(let reason):
            "cannot open the saved state: \(reason)"
        }
    }
}
