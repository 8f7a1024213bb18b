import DBusCore
import FoundationEssentials
import NotificationBridgeAPI
import NotificationModel

/// Local notifications — the counterparts of `scheduleLocalNotification`, `presentLocalNotificationNow`,
/// `cancelLocalNotification`, `cancelAllLocalNotifications` and `scheduledLocalNotifications` — kept by the
/// `notification-bridged` daemon.
///
/// ```swift
/// let client = try await LocalNotificationClient.connect(appName: "Kettle")
/// try await withThrowingDiscardingTaskGroup { group in
///     group.addTask { await client.run() }
///     let id = try await client.schedule(
///         NotificationContent(title: "Tea is ready"), trigger: .timeInterval(seconds: 240))
///     for await response in client.responses { print(response.notificationID, response.actionID) }
/// }
/// ```
///
/// The client hears the daemon in ``run()``, which the app runs in a task group of its own for as long as it uses the
/// client; cancelling that task ends it, detaches the app and finishes the streams.
///
/// ## Why the daemon holds them
///
/// A scheduled notification must fire while the app is not running, after a logout, after a crash. So this type
/// does not schedule anything in the app's process: it hands each notification to the daemon
/// (`io.github.NotificationBridge`, started by D-Bus activation on the first call), which keeps it on disk under
/// `$XDG_STATE_HOME/notification-bridge/`, sleeps until it is due (one timer, no polling), follows time-zone changes
/// and resumes, and shows it through the desktop's notification server. ``DesktopNotificationCenter`` is the
/// in-process alternative for notifications shown now, with handlers in the app.
///
/// ## Where responses go
///
/// The client attaches to the daemon as the running app ``appName`` (`Attach`). The user's responses to the app's
/// notifications arrive on ``responses``: those posted by this client while it runs, and those posted earlier (by an
/// earlier run, or scheduled then) whose posting connection has gone, as long as this client is the app's most
/// recently attached one. While the app is not running, responses the daemon cannot deliver are kept for
/// `WaitForResponse`; give notifications an `exec` command (``schedule(_:trigger:command:)``) to have them handled
/// with no app running.
///
/// With ``setForeground(_:)`` true (the app is frontmost), the app's scheduled notifications are not shown when they
/// fire: they arrive on ``firings`` instead, as on iOS for an app in the foreground; ``present(id:)`` shows one anyway.
///
/// If the daemon restarts, the client attaches again by itself while ``run()`` runs.
public actor LocalNotificationClient {
    /// The session-bus connection to the daemon.
    public nonisolated let connection: DBusConnection
    /// The app the client posts under and attaches as: the name given, or in a sandbox the app's id
    /// (``Sandbox/appID(environment:)``), the one name the daemon lets a sandboxed app act as.
    public nonisolated let appName: String
    /// Responses to the app's notifications (see the type's documentation), in the order the user acted.
    public nonisolated let responses: AsyncStream<NotificationResponse>
    /// Scheduled notifications of the app that fired while it was in the foreground, and were not shown.
    public nonisolated let firings: AsyncStream<ListedNotification>

    private let responseSink: AsyncStream<NotificationResponse>.Continuation
    private let firingSink: AsyncStream<ListedNotification>.Continuation
    /// The attachment as ``appName``, which attaches again when the daemon restarts.
    private let attachment: BridgeAttachment
    let proxy: BridgeProxy

    /// Connects to the session bus and attaches as `appName`.
    ///
    /// - Throws: `DBusFailure` when the session bus cannot be reached, ``DaemonUnreachableError`` when the daemon
    ///   cannot (in a sandbox: what the app's manifest must grant).
    public static func connect(appName: String, foreground: Bool = false) async throws -> LocalNotificationClient {
        try await LocalNotificationClient(
            connection: try await DBusConnection.connect(to: .session), appName: appName, foreground: foreground)
    }

    /// Attaches as `appName` on an existing connection.
    ///
    /// - Parameters:
    ///   - connection: a session-bus connection; the client calls the daemon and hears its signals on it.
    ///   - appName: the app name its notifications are posted under and responses are claimed for; in a Flatpak or a
    ///     Snap, its app id is taken instead, as the daemon knows it by no other.
    ///   - foreground: whether the app starts frontmost (see ``setForeground(_:)``).
    /// - Throws: ``DaemonUnreachableError`` when the daemon cannot be reached (in a sandbox: what the app's manifest
    ///   must grant), `DBusFailure` when it refuses the app name.
    public init(connection: DBusConnection, appName: String, foreground: Bool = false) async throws {
        try await self.init(connection: connection, appName: appName, foreground: foreground, sandbox: .current)
    }

    /// Attaches as `appName`, taking `sandbox` for the sandbox the app runs in (tests force it).
    package init(
        connection: DBusConnection, appName: String, foreground: Bool, sandbox: Sandbox?,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws {
        self.connection = connection
        self.proxy = BridgeProxy(connection: connection)
        self.appName = sandbox?.appID(environment: environment) ?? appName
        let (responses, responseSink) = AsyncStream.makeStream(of: NotificationResponse.self)
        let (firings, firingSink) = AsyncStream.makeStream(of: ListedNotification.self)
        self.responses = responses
        self.firings = firings
        self.responseSink = responseSink
        self.firingSink = firingSink
        do {
            attachment = try await BridgeAttachment(proxy: proxy, appName: self.appName, foreground: foreground)
        } catch let failure as DBusFailure where DaemonUnreachableError.isUnreachable(failure) {
            throw DaemonUnreachableError(failure: failure, sandbox: sandbox)
        }
    }

    /// Hears the daemon until the task that runs it is cancelled or the connection closes: the responses and firings
    /// it sends the app, handed to ``responses`` and ``firings``, and its restarts, after which the client attaches
    /// again. Run it once, in a task group of the app's, for as long as the client is used; until it runs, nothing
    /// arrives on the streams. When it ends it detaches the app from the daemon (cancelled) and finishes the streams;
    /// the connection stays open (close it yourself).
    public func run() async {
        let (attachment, responseSink, firingSink) = (self.attachment, self.responseSink, self.firingSink)
        await withDiscardingTaskGroup { group in
            group.addTask { await attachment.run() }
            // Ends with the connection, or at once when the task is cancelled.
            for await event in attachment.events {
                switch event {
                case .responded(let response):
                    responseSink.yield(response.notificationResponse)
                case .fired(let notification):
                    firingSink.yield(notification)
                case .closed, .settingsChanged, .desktopDoNotDisturbChanged:
                    continue
                }
            }
            group.cancelAll()
        }
        responseSink.finish()
        firingSink.finish()
    }

    deinit {
        // Also when run() never ran.
        responseSink.finish()
        firingSink.finish()
    }

    // MARK: Posting

    /// Schedules a notification: the counterpart of `scheduleLocalNotification`.
    ///
    /// - Parameters:
    ///   - content: what to show; its app name is ``appName`` unless it names one.
    ///   - trigger: when it fires; a date in the past fires at once.
    ///   - command: an `exec` command (argv, program first) that receives the responses instead of ``responses``,
    ///     even when the app is not running.
    /// - Returns: the id, for ``withdraw(id:)``.
    /// - Throws: `DBusFailure` (`io.github.NotificationBridge1.Error.InvalidArgument` …) saying what to change.
    @discardableResult
    public func schedule(
        _ content: NotificationContent, trigger: NotificationTrigger, command: [String]? = nil
    ) async throws -> String {
        guard let schedule = PostSchedule(trigger) else {
            throw BridgeError.invalid(
                "a repeating time-interval trigger has no form in the daemon's API; use a date trigger with a repeat "
                    + "interval")
        }
        var post = request(content, command: command)
        post.schedule = schedule
        return try await proxy.post(post)
    }

    /// Shows a notification now: the counterpart of `presentLocalNotificationNow`.
    ///
    /// - Throws: `DBusFailure`; `…Error.NoServer` when no notification server runs.
    @discardableResult
    public func post(_ content: NotificationContent, command: [String]? = nil) async throws -> String {
        try await proxy.post(request(content, command: command))
    }

    private func request(_ content: NotificationContent, command: [String]?) -> NotificationPost {
        var content = content
        if content.appName == nil { content.appName = appName }
        return NotificationPost(content: content, route: command.map(PostRoute.command))
    }

    /// Registers a category with the daemon (kept across its restarts), so that notifications can name it.
    public func register(_ category: NotificationCategory) async throws {
        try await proxy.registerCategory(category)
    }

    // MARK: Withdrawing and listing

    /// Cancels a scheduled notification, or closes a showing one: the counterpart of `cancelLocalNotification`.
    public func withdraw(id: String) async throws {
        try await proxy.withdraw(id: id)
    }

    /// Cancels every scheduled notification of the app and closes every showing one: the counterpart of
    /// `cancelAllLocalNotifications`.
    ///
    /// - Returns: their ids.
    @discardableResult
    public func withdrawAll() async throws -> [String] {
        try await proxy.withdrawAll(filter)
    }

    /// The app's scheduled notifications, earliest first: the counterpart of `scheduledLocalNotifications`.
    public func pending() async throws -> [ListedNotification] {
        try await proxy.listPending(filter)
    }

    /// The app's notifications that are showing.
    public func delivered() async throws -> [ListedNotification] {
        try await proxy.listDelivered(filter)
    }

    /// The app's notifications that were shown and ended, newest first, with how each ended: what the user may
    /// still answer with ``act(id:action:text:)``.
    public func history() async throws -> [HistoryEntry] {
        try await proxy.listHistory(filter)
    }

    /// Answers one of the app's notifications of the ``history()`` that ended without a response (expired, or gone
    /// with its server), as a click on `action` would: the response goes where it would have gone then.
    ///
    /// - Throws: `Error.NotAnswerable` for one the user dismissed, the app withdrew or replaced, or that was
    ///   answered already; `Error.NotSupported` for one whose poster has gone with no app attached to take the
    ///   response. `HistoryEntry.isAnswerable` says beforehand, by the same check.
    public func act(id: String, action: String, text: String? = nil) async throws {
        try await proxy.act(id: id, action: action, text: text)
    }

    private var filter: NotificationFilter { NotificationFilter(appName: appName) }

    // MARK: Foreground

    /// Says whether the app is frontmost: while it is, its scheduled notifications arrive on ``firings`` instead of
    /// being shown.
    public func setForeground(_ foreground: Bool) async throws {
        try await attachment.setForeground(foreground)
    }

    /// Shows a notification that arrived on ``firings``, as if the app were not frontmost.
    public func present(id: String) async throws {
        try await proxy.present(id: id)
    }
}
