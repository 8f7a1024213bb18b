import DBusCore
import NotificationModel

/// A typed proxy of `io.github.NotificationBridge1` on a connection: one method per D-Bus method, taking and
/// returning the wire values of this module.
///
/// ```swift
/// let proxy = BridgeProxy(connection: try await DBusConnection.connect(to: .session))
/// let id = try await proxy.post(NotificationPost(content: NotificationContent(title: "Tea is ready")))
/// let response = try await proxy.waitForResponse(id: id)
/// for await event in try await proxy.events([.responded, .closed]) { print(event) }
/// ```
///
/// The methods are named by ``BridgeMethod``; the signals arrive decoded, as ``BridgeEvent``s (``events(_:)``), and
/// ``BridgeAttachment`` keeps a connection attached as a running app across restarts of the daemon.
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
            id: category.id, actions: category.actions.map(ActionWire.value(of:)),
            options: CategoryWire.options(of: category))
    }

    /// `RegisterCategory` with actions and options as given: for clients that write only some keys.
    public func registerCategory(id: String, actions: [DBusValue], options: WireEntries) async throws {
        try await call(.registerCategory(id: id, actions: actions, options: options.value))
    }

    /// `RemoveCategory(s id)`.
    public func removeCategory(id: String) async throws {
        try await call(.removeCategory(id: id))
    }

    /// `ListCategories() -> aa{sv}`: the categories registered, each read by ``CategoryWire/decode(listed:)``.
    ///
    /// - Throws: the daemon's `DBusFailure`, or `InvalidArgument` for a category this version cannot read.
    public func listCategories() async throws -> [NotificationCategory] {
        try dictionaries(try await call(BridgeRequest.listCategories), of: .listCategories).map { value in
            try CategoryWire.decode(listed: value)
        }
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
        try await string(call(.post(notification: entries.value)), of: .post)
    }

    /// `Withdraw(s id)`.
    public func withdraw(id: String) async throws {
        try await call(.withdraw(id: id))
    }

    /// `WithdrawAll(a{sv} filter) -> as ids`.
    @discardableResult
    public func withdrawAll(_ filter: NotificationFilter) async throws -> [String] {
        let reply = try await call(.withdrawAll(filter: filter.value))
        guard case .array(_, let ids)? = reply.first else { throw Self.unexpected(reply, from: .withdrawAll) }
        return ids.compactMap(\.stringValue)
    }

    /// `ListPending(a{sv} filter) -> aa{sv}`.
    public func listPending(_ filter: NotificationFilter) async throws -> [ListedNotification] {
        try dictionaries(try await call(.listPending(filter: filter.value)), of: .listPending)
            .compactMap(ListedNotification.init)
    }

    /// `ListDelivered(a{sv} filter) -> aa{sv}`.
    public func listDelivered(_ filter: NotificationFilter) async throws -> [ListedNotification] {
        try dictionaries(try await call(.listDelivered(filter: filter.value)), of: .listDelivered)
            .compactMap(ListedNotification.init)
    }

    /// `WaitForResponse(s id) -> (s action, a{sv} response)`: returns when the user responds, without a time bound.
    ///
    /// - Returns: the response: the action chosen, the typed text, the activation token and the user info.
    /// - Throws: ``BridgeError/closed`` when the notification closes without a response.
    public func waitForResponse(id: String) async throws -> BridgeResponse {
        let reply = try await call(.waitForResponse(id: id), timeout: .seconds(Int64.max))
        guard reply.count == 2, let action = reply[0].stringValue,
            let response = BridgeResponse(notificationID: id, actionID: action, dictionary: reply[1])
        else {
            throw Self.unexpected(reply, from: .waitForResponse)
        }
        return response
    }

    // MARK: Apps

    /// `Attach(s app_name, a{sv} options)`.
    public func attach(appName: String, foreground: Bool) async throws {
        var options = WireEntries()
        options[AttachOptionKeys.foreground] = foreground
        try await call(.attach(appName: appName, options: options.value))
    }

    /// `Detach(s app_name)`.
    public func detach(appName: String) async throws {
        try await call(.detach(appName: appName))
    }

    /// `Present(s id)`.
    public func present(id: String) async throws {
        try await call(.present(id: id))
    }

    /// `GetServerInformation() -> a{sv}`: read key by key through ``ServerInformationKeys``.
    public func serverInformation() async throws -> WireEntries {
        let reply = try await call(BridgeRequest.getServerInformation)
        guard let information = reply.first.flatMap(WireEntries.init) else {
            throw Self.unexpected(reply, from: .getServerInformation)
        }
        return information
    }

    // MARK: Signals

    /// A match rule for the daemon's signals, or for those of `members` only.
    public static func signals(_ members: [BridgeSignal] = []) -> DBusMatchRule {
        DBusMatchRule(
            sender: BridgeAPI.busName, path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName,
            member: members.count == 1 ? members[0].name : nil)
    }

    /// The daemon's signals to this connection (and those it broadcasts), decoded, in the order the bus delivered
    /// them; only those of `members` when it is not empty.
    ///
    /// The match rule is active when this returns, so no signal sent afterwards is missed. The stream finishes when
    /// the connection closes; cancelling its iteration removes the rule.
    public func events(_ members: [BridgeSignal] = []) async throws -> AsyncStream<BridgeEvent> {
        try await connection.signals(matching: Self.signals(members)) { signal in
            guard let event = BridgeEvent(signal), members.isEmpty || members.contains(event.signal) else {
                return nil
            }
            return event
        }
    }

    // MARK: Calls

    /// Makes the call `request` describes; returns the reply's values.
    ///
    /// - Parameter timeout: how long the call may take; ``timeout`` when `nil`.
    /// - Throws: the `DBusFailure` the daemon answered with.
    @discardableResult
    public func call(_ request: BridgeRequest, timeout: Duration? = nil) async throws -> [DBusValue] {
        try await call(request.method, request.arguments, timeout: timeout)
    }

    /// Sends `request` without waiting for the daemon's answer (the `NO_REPLY_EXPECTED` flag): for a request made on
    /// the way out, once the caller's task is cancelled and a call could not wait.
    ///
    /// - Throws: `DBusFailure` (`Disconnected`) once the connection is closed.
    public func send(_ request: BridgeRequest) throws {
        try connection.send(
            destination: BridgeAPI.busName, path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName,
            method: request.method.name, arguments: request.arguments)
    }

    /// Calls `method` with `arguments` as given, for clients that build the arguments themselves (and for tests that
    /// send what the typed methods would not); returns the reply's values.
    ///
    /// - Parameter timeout: how long the call may take; ``timeout`` when `nil`.
    /// - Throws: the `DBusFailure` the daemon answered with.
    @discardableResult
    public func call(_ method: BridgeMethod, _ arguments: [DBusValue] = [], timeout: Duration? = nil)
        async throws -> [DBusValue]
    {
        try await connection.call(
            destination: BridgeAPI.busName, path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName,
            method: method.name, arguments: arguments, timeout: timeout ?? self.timeout)
    }

    private func string(_ reply: [DBusValue], of method: BridgeMethod) throws -> String {
        guard let text = reply.first?.stringValue else { throw Self.unexpected(reply, from: method) }
        return text
    }

    func dictionaries(_ reply: [DBusValue], of method: BridgeMethod) throws -> [DBusValue] {
        guard case .array(_, let items)? = reply.first else { throw Self.unexpected(reply, from: method) }
        return items
    }

    static func unexpected(_ reply: [DBusValue], from method: BridgeMethod) -> DBusFailure {
        DBusFailure(
            name: DBusFailure.Name.failed,
            message: "\(method.name) answered (\(reply.map(\.description).joined(separator: ", "))), which this client "
                + "does not read; is the daemon of another version?")
    }
}
