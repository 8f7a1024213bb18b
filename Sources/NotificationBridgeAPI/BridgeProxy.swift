import DBusCore
import NotificationModel

/// A typed proxy of `io.github.NotificationBridge1` on a connection: one method per D-Bus method, taking and
/// returning the wire values of this module.
///
/// ```swift
/// let proxy = BridgeProxy(connection: try await DBusConnection.connect(to: .session))
/// let id = try await proxy.post(NotificationPost(content: NotificationContent(title: "Tea is ready")))
/// let (action, response) = try await proxy.waitForResponse(id: id)
/// ```
///
/// Every method throws the `DBusFailure` the daemon answered with; ``BridgeError/init(_:)`` tells which kind. The
/// daemon is started by D-Bus activation on the first call.
public struct BridgeProxy: Sendable {
    /// The connection the calls go out on.
    public let connection: DBusConnection
    /// How long a call may take before it fails with `org.freedesktop.DBus.Error.NoReply`; ``waitForResponse(id:)``
    /// waits without a bound.
    public var timeout: Duration

    /// How long a call may take unless the proxy is given another ``timeout``: libdbus's own default.
    public static let defaultTimeout: Duration = .seconds(25)

    /// A proxy of the daemon on `connection`.
    public init(connection: DBusConnection, timeout: Duration = defaultTimeout) {
        self.connection = connection
        self.timeout = timeout
    }

    // MARK: Categories

    /// `RegisterCategory(s id, aa{sv} actions, a{sv} options)`.
    public func registerCategory(_ category: NotificationCategory) async throws {
        try await registerCategory(
            id: category.id, actions: ActionWire.value(of: category.actions),
            options: CategoryWire.options(of: category))
    }

    /// `RegisterCategory` with actions and options as given: for clients that write only some keys.
    public func registerCategory(id: String, actions: DBusValue, options: WireEntries) async throws {
        try await call("RegisterCategory", [.string(id), actions, options.value])
    }

    /// `RemoveCategory(s id)`.
    public func removeCategory(id: String) async throws {
        try await call("RemoveCategory", [.string(id)])
    }

    /// `ListCategories() -> aa{sv}`, each as it came (see ``CategoryWire/decode(listed:)``).
    public func listCategories() async throws -> [DBusValue] {
        try dictionaries(try await call("ListCategories"), of: "ListCategories")
    }

    // MARK: Notifications

    /// `Post(a{sv} notification) -> s id`.
    @discardableResult
    public func post(_ post: NotificationPost) async throws -> String {
        try await self.post(post.entries)
    }

    /// `Post` with the keys as given: for clients that write only some keys.
    @discardableResult
    public func post(_ entries: WireEntries) async throws -> String {
        try await string(call("Post", [entries.value]), of: "Post")
    }

    /// `Withdraw(s id)`.
    public func withdraw(id: String) async throws {
        try await call("Withdraw", [.string(id)])
    }

    /// `WithdrawAll(a{sv} filter) -> as ids`.
    @discardableResult
    public func withdrawAll(_ filter: NotificationFilter) async throws -> [String] {
        let reply = try await call("WithdrawAll", [filter.value])
        guard case .array(_, let ids)? = reply.first else { throw Self.unexpected(reply, from: "WithdrawAll") }
        return ids.compactMap(\.stringValue)
    }

    /// `ListPending(a{sv} filter) -> aa{sv}`.
    public func listPending(_ filter: NotificationFilter) async throws -> [ListedNotification] {
        try dictionaries(try await call("ListPending", [filter.value]), of: "ListPending")
            .compactMap(ListedNotification.init)
    }

    /// `ListDelivered(a{sv} filter) -> aa{sv}`.
    public func listDelivered(_ filter: NotificationFilter) async throws -> [ListedNotification] {
        try dictionaries(try await call("ListDelivered", [filter.value]), of: "ListDelivered")
            .compactMap(ListedNotification.init)
    }

    /// `WaitForResponse(s id) -> (s action, a{sv} response)`: returns when the user responds, without a time bound.
    ///
    /// - Returns: the action, and the response dictionary as it came (``BridgeResponse/init(_:)`` reads it).
    /// - Throws: ``BridgeError/closed`` when the notification closes without a response.
    public func waitForResponse(id: String) async throws -> (action: String, response: DBusValue) {
        let reply = try await call("WaitForResponse", [.string(id)], timeout: .seconds(Int64.max))
        guard reply.count == 2, let action = reply[0].stringValue else {
            throw Self.unexpected(reply, from: "WaitForResponse")
        }
        return (action, reply[1])
    }

    // MARK: Apps

    /// `Attach(s app_name, a{sv} options)`.
    public func attach(appName: String, foreground: Bool) async throws {
        var options = WireEntries()
        options[AttachOptionKeys.foreground] = foreground
        try await call("Attach", [.string(appName), options.value])
    }

    /// `Detach(s app_name)`.
    public func detach(appName: String) async throws {
        try await call("Detach", [.string(appName)])
    }

    /// `Present(s id)`.
    public func present(id: String) async throws {
        try await call("Present", [.string(id)])
    }

    /// `GetServerInformation() -> a{sv}`.
    public func serverInformation() async throws -> DBusValue {
        let reply = try await call("GetServerInformation")
        guard let information = reply.first else { throw Self.unexpected(reply, from: "GetServerInformation") }
        return information
    }

    // MARK: Signals

    /// A match rule for the daemon's signals (`Responded`, `Fired`, `Closed`), optionally one of them.
    public static func signals(member: String? = nil) -> DBusMatchRule {
        DBusMatchRule(
            sender: BridgeAPI.busName, path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName,
            member: member)
    }

    // MARK: Calls

    @discardableResult
    func call(_ method: String, _ arguments: [DBusValue] = [], timeout: Duration? = nil)
        async throws -> [DBusValue]
    {
        try await connection.call(
            destination: BridgeAPI.busName, path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName,
            method: method, arguments: arguments, timeout: timeout ?? self.timeout)
    }

    private func string(_ reply: [DBusValue], of method: String) throws -> String {
        guard let text = reply.first?.stringValue else { throw Self.unexpected(reply, from: method) }
        return text
    }

    func dictionaries(_ reply: [DBusValue], of method: String) throws -> [DBusValue] {
        guard case .array(_, let items)? = reply.first else { throw Self.unexpected(reply, from: method) }
        return items
    }

    static func unexpected(_ reply: [DBusValue], from method: String) -> DBusFailure {
        DBusFailure(
            name: DBusFailure.Name.failed,
            message: "\(method) answered (\(reply.map(\.description).joined(separator: ", "))), which this client "
                + "does not read; is the daemon of another version?")
    }
}
