import DBusCore
import NotificationBridgeAPI

/// The daemon's ``BridgeProxy`` on the session bus; every failure becomes a ``CLIFailure`` whose message says what to
/// do.
struct BridgeClient {
    let proxy: BridgeProxy

    var connection: DBusConnection { proxy.connection }

    /// The bus the commands of this task talk on: the session bus unless one is given with `$bus.withValue` (a
    /// command run in-process by a test, on a bus of its own).
    @TaskLocal package static var bus: DBusConnection.Bus = .session

    /// Connects to ``bus``.
    static func connect() async throws -> BridgeClient {
        do {
            return BridgeClient(proxy: BridgeProxy(connection: try await DBusConnection.connect(to: bus)))
        } catch {
            throw cannotConnect(error)
        }
    }

    /// The line a user sees when the session bus cannot be reached.
    static func cannotConnect(_ error: any Error) -> CLIFailure {
        guard let failure = error as? DBusFailure else {
            return CLIFailure(
                "notification-bridge: cannot connect to the session bus (\(error)); run it inside a desktop session, "
                    + "or set DBUS_SESSION_BUS_ADDRESS")
        }
        return CLIFailure(
            "notification-bridge: cannot connect to the session bus (\(failure.message)); run it inside a desktop "
                + "session, or set DBUS_SESSION_BUS_ADDRESS")
    }

    /// Calls the daemon through the proxy, turning its failures into ``CLIFailure``s.
    @discardableResult
    func call<Result>(_ body: (BridgeProxy) async throws -> Result) async throws -> Result {
        do {
            return try await body(proxy)
        } catch let failure as DBusFailure {
            throw Self.failure(failure)
        } catch {
            throw CLIFailure(
                "notification-bridge: the daemon's answer could not be read (\(error)); check that "
                    + "notification-bridged and notification-bridge are the same version")
        }
    }

    func close() async { await connection.close() }

    /// The line a user sees for a D-Bus error, and its exit status. A key the daemon refused is named by the option
    /// that sets it (``KeyOptions``), from the parts of the error (``KeyFailure``).
    static func failure(_ failure: DBusFailure) -> CLIFailure {
        var message = failure.message
        if let refusal = KeyFailure(failure), let option = KeyOptions.name(of: refusal) {
            message = "\(option) \(refusal.problem)"
        }
        switch BridgeError(failure) {
        case .closed?:
            return .closed("notification-bridge: \(message)")
        case .invalidArgument? where message.contains("unknown key '\(PostKeys.hints.name)'"):
            return CLIFailure(
                "notification-bridge: --hint, --server-category: this notification-bridged is older and does not "
                    + "forward custom hints; update it, or use the options (--urgency, --sound, --image, "
                    + "--desktop-entry, --transient, --resident) instead", status: ExitStatus.usage)
        case .invalidArgument?:
            return CLIFailure("notification-bridge: \(message)", status: ExitStatus.usage)
        case .unknownNotification?:
            return CLIFailure(
                "notification-bridge: \(message) (notification-bridge list shows the notifications showing)",
                status: ExitStatus.usage)
        case .unknownCategory?:
            return CLIFailure(
                "notification-bridge: \(message) (register it with 'notification-bridge category add'; for "
                    + "notify-send's -c category hint, use -c/--server-category)", status: ExitStatus.usage)
        case .some:
            return CLIFailure("notification-bridge: \(message)")
        case nil:
            break
        }
        switch failure.name {
        case DBusFailure.Name.serviceUnknown, DBusFailure.Name.nameHasNoOwner:
            return CLIFailure(
                "notification-bridge: notification-bridged is not running and D-Bus could not start it (\(message)); "
                    + "install it (its D-Bus service file) or start notification-bridged")
        case DBusFailure.Name.noReply, DBusFailure.Name.timeout:
            return CLIFailure(
                "notification-bridge: notification-bridged did not answer in time (\(message)); it may be busy or "
                    + "hung: try again, or restart it (systemctl --user restart notification-bridged)")
        default:
            return CLIFailure(
                "notification-bridge: \(message) (\(failure.name)); check that notification-bridged "
                    + "runs (notification-bridge server-info)")
        }
    }
}
