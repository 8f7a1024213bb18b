import DBusCore

/// A connection to `io.github.NotificationBridge1` on the session bus; every failure becomes a ``CLIFailure`` whose
/// message says what to do.
struct BridgeClient {
    static let busName = "io.github.NotificationBridge"
    static let objectPath: DBusObjectPath = "/io/github/NotificationBridge"
    static let interfaceName = "io.github.NotificationBridge1"
    static let errorPrefix = interfaceName + ".Error."

    let connection: DBusConnection

    /// Connects to the session bus.
    static func connect() async throws -> BridgeClient {
        do {
            return BridgeClient(connection: try await DBusConnection.connect(to: .session))
        } catch let failure as DBusFailure {
            throw CLIFailure(
                "notification-bridge: cannot connect to the session bus (\(failure.message)); run it inside a desktop "
                    + "session, or set DBUS_SESSION_BUS_ADDRESS")
        } catch {
            throw CLIFailure("notification-bridge: cannot connect to the session bus (\(error))")
        }
    }

    /// Calls a method of the daemon and returns its reply.
    ///
    /// - Parameter timeout: how long to wait; `nil` waits for ever (`WaitForResponse`).
    @discardableResult
    func call(_ method: String, _ arguments: [DBusValue] = [], timeout: Duration? = .seconds(25))
        async throws -> [DBusValue]
    {
        do {
            return try await connection.call(
                destination: Self.busName, path: Self.objectPath, interface: Self.interfaceName, method: method,
                arguments: arguments, timeout: timeout ?? .seconds(Int64.max))
        } catch let failure as DBusFailure {
            throw Self.failure(failure)
        } catch {
            throw CLIFailure("notification-bridge: \(method) failed: \(error)")
        }
    }

    func close() async { await connection.close() }

    /// The line a user sees for a D-Bus error, and its exit status.
    static func failure(_ failure: DBusFailure) -> CLIFailure {
        let message = failure.message
        switch failure.name {
        case errorPrefix + "Closed":
            return .closed("notification-bridge: \(message)")
        case errorPrefix + "InvalidArgument" where message.contains("unknown key 'hints'"):
            return CLIFailure(
                "notification-bridge: --hint, --server-category: this notification-bridged is older and does not "
                    + "forward custom hints; update it, or use the options (--urgency, --sound, --image, "
                    + "--desktop-entry, --transient, --resident) instead")
        case errorPrefix + "InvalidArgument":
            return CLIFailure("notification-bridge: the daemon refused the request: \(message)")
        case errorPrefix + "UnknownCategory":
            return CLIFailure(
                "notification-bridge: \(message) (register it with 'notification-bridge category add'; for "
                    + "notify-send's -c category hint, use -c/--server-category)")
        case errorPrefix + "UnknownNotification":
            return CLIFailure("notification-bridge: \(message)")
        case errorPrefix + "NotSupported", errorPrefix + "ServerError", errorPrefix + "LimitExceeded",
            errorPrefix + "ShuttingDown":
            return CLIFailure("notification-bridge: \(message)")
        case DBusFailure.Name.serviceUnknown, DBusFailure.Name.nameHasNoOwner:
            return CLIFailure(
                "notification-bridge: notification-bridged is not running and D-Bus could not start it (\(message)); "
                    + "install it (its D-Bus service file) or start notification-bridged")
        case DBusFailure.Name.noReply, DBusFailure.Name.timeout:
            return CLIFailure("notification-bridge: notification-bridged did not answer in time (\(message))")
        default:
            return CLIFailure("notification-bridge: \(failure.name): \(message)")
        }
    }
}
