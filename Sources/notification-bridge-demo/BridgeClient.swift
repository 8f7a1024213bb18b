import DBusCore
import NotificationBridgeAPI

/// The demo's app talking to `notification-bridged`, as any D-Bus client would (the same calls `gdbus` makes).
struct BridgeClient: Sendable {
    static let busName = "io.github.NotificationBridge"
    static let objectPath: DBusObjectPath = "/io/github/NotificationBridge"
    static let interface = "io.github.NotificationBridge1"

    let connection: DBusConnection

    /// What the daemon sends this connection about the notifications it posted.
    enum Report: Sendable {
        /// `Responded(id, action, response)`.
        case responded(id: String, action: String, response: [String: DBusValue])
        /// `Closed(id, reason)`.
        case closed(id: String, reason: UInt32)
    }

    /// `Responded` and `Closed` from now on.
    func reports() async throws -> AsyncStream<Report> {
        let rule = DBusMatchRule(sender: Self.busName, path: Self.objectPath, interface: Self.interface)
        return try await connection.signals(matching: rule) { signal in
            switch (signal.member, signal.arguments.count) {
            case ("Responded", 3):
                guard case .string(let id) = signal.arguments[0], case .string(let action) = signal.arguments[1]
                else { return nil }
                let response = (signal.arguments[2].stringKeyedEntries ?? [:]).mapValues(\.unwrappedVariant)
                return .responded(id: id, action: action, response: response)
            case ("Closed", 2):
                guard case .string(let id) = signal.arguments[0], case .uint32(let reason) = signal.arguments[1]
                else { return nil }
                return .closed(id: id, reason: reason)
            default:
                return nil
            }
        }
    }

    @discardableResult
    func call(_ method: String, _ arguments: [DBusValue]) async throws -> [DBusValue] {
        try await connection.call(
            destination: Self.busName, path: Self.objectPath, interface: Self.interface, method: method,
            arguments: arguments, timeout: .seconds(10))
    }

    /// Posts (or schedules) a notification; returns its id.
    func post(_ notification: DBusValue) async throws -> String {
        try await call("Post", [notification]).decode(String.self)
    }

    /// Returns once the daemon lists a notification titled `title` as delivered: from then on it routes what the
    /// user does with it. (A person cannot act in the instant between the notification appearing and the daemon
    /// hearing back from the server; a script can, so the script waits for this first.)
    ///
    /// - Throws: ``DemoFailure`` when it is not listed within `limit`.
    func waitUntilDelivered(title: String, within limit: Duration = .seconds(10)) async throws {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if try await titles("ListDelivered").contains(title) { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw DemoFailure("notification-bridged did not list “\(title)” as delivered within \(limit)")
    }

    /// The titles of the notifications waiting for their time.
    func pendingTitles() async throws -> [String] {
        try await titles("ListPending")
    }

    /// The titles `ListPending` or `ListDelivered` returns.
    private func titles(_ method: String) async throws -> [String] {
        guard case .array(_, let entries)? = try await call(method, [.vardict([:])]).first else { return [] }
        return entries.compactMap { $0.stringKeyedEntries?[PostKeys.title.name]?.unwrappedVariant.stringValue }
    }
}
