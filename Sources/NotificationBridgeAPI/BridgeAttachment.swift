import DBusCore

/// A connection attached to the daemon as a running app (`Attach`), that stays attached when the daemon restarts, with
/// the daemon's signals to it decoded.
///
/// ```swift
/// let attachment = try await BridgeAttachment(proxy: proxy, appName: "Kettle", foreground: false)
/// await withDiscardingTaskGroup { group in
///     group.addTask { await attachment.run() }
///     for await event in attachment.events {
///         if case .responded(let response) = event { handle(response) }
///     }
///     group.cancelAll()
/// }
/// ```
///
/// The daemon forgets an attachment when it stops; while ``run()`` runs, when a daemon takes the bus name again, the
/// attachment calls `Attach` again, with the foreground state it has then. It starts no task of its own: ``run()``
/// runs in the caller's task group, so that nothing of the attachment outlives the caller's scope, and cancelling that
/// group detaches the app.
public actor BridgeAttachment {
    /// The daemon's signals to this connection, in the order the bus delivered them: responses to the app's
    /// notifications, the app's scheduled notifications handed to it, closings, settings changes. The stream finishes
    /// when the connection closes.
    public nonisolated let events: AsyncStream<BridgeEvent>
    /// The app the connection is attached as.
    public nonisolated let appName: String
    /// Whether the app counts as frontmost: its scheduled notifications come as ``BridgeEvent/fired(id:notification:)``
    /// instead of being shown.
    public private(set) var foreground: Bool

    private let proxy: BridgeProxy
    /// The daemon's name changing owner, followed by ``run()``.
    private nonisolated let owners: AsyncStream<String?>

    /// Subscribes to the daemon's signals, then attaches as `appName`.
    ///
    /// - Throws: the `DBusFailure` of the subscription or of `Attach` (the daemon refuses the app name, or cannot be
    ///   reached).
    public init(proxy: BridgeProxy, appName: String, foreground: Bool) async throws {
        self.proxy = proxy
        self.appName = appName
        self.foreground = foreground
        // Both subscriptions are active before Attach, so that no response and no restart of the daemon is missed.
        events = try await proxy.events()
        owners = try await proxy.connection.nameOwnerChanges(of: BridgeAPI.busName)
        try await proxy.attach(appName: appName, foreground: foreground)
    }

    /// Attaches again each time a daemon takes the bus name, until the calling task is cancelled or the connection
    /// ends. Run it once, in a task group of the caller's, for as long as the attachment is wanted; a failed `Attach`
    /// is tried again at the next daemon.
    ///
    /// Cancelled, it sends `Detach` (without waiting for the answer) before it returns: the daemon no longer hands
    /// the app's responses to this connection, which stays open for the caller to close. The ``events`` stream
    /// finishes when the connection closes.
    public func run() async {
        for await owner in owners where owner != nil {
            try? await attachAgain()
        }
        // The connection closed: no daemon can be attached to on it any more, and none needs telling.
        guard Task.isCancelled else { return }
        try? proxy.send(.detach(appName: appName))
    }

    /// Says whether the app is frontmost, to the daemon at once.
    public func setForeground(_ foreground: Bool) async throws {
        self.foreground = foreground
        try await attachAgain()
    }

    private func attachAgain() async throws {
        try await proxy.attach(appName: appName, foreground: foreground)
    }
}
