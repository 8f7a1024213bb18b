import DBusCore

/// A connection attached to the daemon as a running app (`Attach`), that stays attached when the daemon restarts, with
/// the daemon's signals to it decoded.
///
/// ```swift
/// let attachment = try await BridgeAttachment(proxy: proxy, appName: "Kettle", foreground: false)
/// for await event in attachment.events {
///     if case .responded(let response) = event { handle(response) }
/// }
/// ```
///
/// The daemon forgets an attachment when it stops; when a daemon takes the bus name again, the attachment calls
/// `Attach` again, with the foreground state it has then.
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
    private var reattacher: Task<Void, Never>?

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
        let owners = try await proxy.connection.nameOwnerChanges(of: BridgeAPI.busName)
        try await proxy.attach(appName: appName, foreground: foreground)
        reattacher = Task { [weak self] in
            for await owner in owners where owner != nil {
                try? await self?.attachAgain()
            }
        }
    }

    deinit { reattacher?.cancel() }

    /// Says whether the app is frontmost, to the daemon at once.
    public func setForeground(_ foreground: Bool) async throws {
        self.foreground = foreground
        try await attachAgain()
    }

    /// Stops attaching again after a restart of the daemon, and calls `Detach`; the events stream ends when the
    /// connection closes.
    public func detach() async {
        reattacher?.cancel()
        reattacher = nil
        _ = try? await proxy.detach(appName: appName)
    }

    private func attachAgain() async throws {
        try await proxy.attach(appName: appName, foreground: foreground)
    }
}
