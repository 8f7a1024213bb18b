import DBusCore
import FreedesktopNotifications

/// A typed client of `org.freedesktop.Notifications` on one connection.
///
/// Signals are taken only from the current owner of the name (DBusCore follows the owner), so another connection
/// cannot forge an `ActionInvoked`.
package struct NotificationServerClient: Sendable {
    /// The bus name of the notification server.
    package static let busName = FreedesktopNames.busName
    /// The interface of the server's methods and signals.
    static let interface = FreedesktopNames.interface
    /// The object path of the server.
    static let path = FreedesktopNames.path

    /// The connection used for calls and signals; signals of GNOME Shell and dunst go only to the connection that
    /// posted, so it must be the same one.
    package let connection: DBusConnection
    /// How long a call may take.
    package var timeout: Duration

    /// Makes a client on `connection`.
    package init(connection: DBusConnection, timeout: Duration = .seconds(10)) {
        self.connection = connection
        self.timeout = timeout
    }

    private func call(_ method: FreedesktopNames.Method, _ arguments: [DBusValue] = []) async throws -> [DBusValue] {
        try await callForReply(method, arguments).values
    }

    private func callForReply(
        _ method: FreedesktopNames.Method, _ arguments: [DBusValue], destination: String? = nil,
        timeout: Duration? = nil
    ) async throws -> DBusReply {
        try await connection.callForReply(
            destination: destination ?? Self.busName, path: Self.path, interface: Self.interface,
            method: method.rawValue, arguments: arguments, timeout: timeout ?? self.timeout)
    }

    /// Posts or replaces a notification; returns the server's id for it (which may differ from `replaces_id`) and
    /// the unique name of the server that took it, which is the name's owner when it answered, not necessarily the
    /// owner the caller last heard of.
    ///
    /// - Parameters:
    ///   - destination: where the call goes: the well-known name (the default), or the unique name of one server
    ///     instance, for a replacement that must reach the server that shows the notification it replaces.
    ///   - timeout: how long to wait; ``timeout`` unless given.
    package func notify(
        _ request: NotifyRequest, destination: String? = nil, timeout: Duration? = nil
    ) async throws -> (id: UInt32, server: String) {
        let reply = try await callForReply(.notify, request.arguments, destination: destination, timeout: timeout)
        return (try reply.values.decode(UInt32.self), reply.sender)
    }

    /// Asks the server to close a notification; `destination` is the unique name of the server instance that shows
    /// it (`nil` for the owner of the well-known name): the id means nothing to another instance.
    package func closeNotification(_ id: UInt32, destination: String? = nil) async throws {
        _ = try await callForReply(.closeNotification, [.uint32(id)], destination: destination)
    }

    /// Asks the server to close a notification, and returns once the call is queued: no answer is asked for, so none
    /// is waited on. For a close whose outcome changes nothing, as one that the server may have made already.
    ///
    /// - Throws: ``DBusFailure`` (`Disconnected`) once the connection is closed.
    package func requestClose(_ id: UInt32, destination: String? = nil) throws {
        try connection.send(
            destination: destination ?? Self.busName, path: Self.path, interface: Self.interface,
            method: FreedesktopNames.Method.closeNotification.rawValue,
            arguments: [.uint32(id)])
    }

    /// Reads the server's name, version and capabilities.
    package func serverInfo() async throws -> NotificationServerInfo {
        let capabilities = try await call(.getCapabilities).decode([String].self)
        let (name, vendor, version, spec) = try await call(.getServerInformation).decode(
            String.self, String.self, String.self, String.self)
        return NotificationServerInfo(
            name: name, vendor: vendor, version: version, specVersion: spec, capabilities: Set(capabilities))
    }

    /// The server's signals, in order, from its current owner only.
    func signals() async throws -> AsyncStream<ReceivedServerSignal> {
        try await connection.signals(
            matching: DBusMatchRule(sender: Self.busName, path: Self.path, interface: Self.interface)
        ) { signal in ServerSignal(signal).map { ReceivedServerSignal(signal: $0, sender: signal.sender) } }
    }
}
