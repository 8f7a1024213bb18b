import DBusCore
import NotificationBridgeAPI

/// The demo's app talking to `notification-bridged` through the contract's typed proxy, as any Swift client would.
struct BridgeClient: Sendable {
    let proxy: BridgeProxy

    init(connection: DBusConnection) {
        proxy = BridgeProxy(connection: connection, timeout: .seconds(10))
    }

    /// `Responded` and `Closed` from now on.
    func reports() async throws -> AsyncStream<BridgeEvent> {
        try await proxy.events([.responded, .closed])
    }

    /// Registers the demo's category, given as `RegisterCategory`'s arguments.
    func registerCategory(_ arguments: [DBusValue]) async throws {
        try await proxy.call(.registerCategory, arguments)
    }

    /// Posts (or schedules) a notification; returns its id.
    func post(_ notification: DBusValue) async throws -> String {
        try await proxy.call(.post, [notification]).decode(String.self)
    }

    /// Returns once the daemon lists a notification titled `title` as delivered: from then on it routes what the
    /// user does with it. (A person cannot act in the instant between the notification appearing and the daemon
    /// hearing back from the server; a script can, so the script waits for this first.)
    ///
    /// - Throws: ``DemoFailure`` when it is not listed within `limit`.
    func waitUntilDelivered(title: String, within limit: Duration = .seconds(10)) async throws {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if try await proxy.listDelivered(NotificationFilter()).contains(where: { $0.title == title }) { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw DemoFailure("notification-bridged did not list “\(title)” as delivered within \(limit)")
    }

    /// The titles of the notifications waiting for their time.
    func pendingTitles() async throws -> [String] {
        try await proxy.listPending(NotificationFilter()).map(\.title)
    }
}
