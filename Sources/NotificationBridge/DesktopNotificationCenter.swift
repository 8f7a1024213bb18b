import DBusCore
import FoundationEssentials
import FreedesktopNotifications
import Glibc
import Logging
import NotificationModel
import Synchronization

/// Posts actionable notifications to the desktop's notification server and delivers the user's responses to
/// handlers — the Linux counterpart of `UNUserNotificationCenter`.
///
/// ```swift
/// let center = try await DesktopNotificationCenter.connect(.init(appName: "Mail", desktopEntry: "org.example.Mail"))
/// try await withThrowingDiscardingTaskGroup { group in
///     group.addTask { await center.run() }
///     try await center.setNotificationCategories([messageCategory])
///     await center.setHandler(forAction: "reply", inCategory: "message") { response in
///         print("reply:", response.userText ?? "")
///     }
///     let id = try await center.post(NotificationContent(title: "New mail", body: "From Ann", categoryID: "message"))
///     …
///     group.cancelAll()
/// }
/// ```
///
/// The center's work (the server's signals, the screen lock, the settings file, open prompts) runs in ``run()``, in a
/// task group of the app's: nothing of the center outlives the scope that runs it. Cancelling that task group ends
/// ``run()``, and with it every piece of the center's work.
///
/// One connection both posts and listens, since several servers send their signals only to the sender. Responses
/// are delivered to exactly one place: the notification's own handler, else the action's, else the category's,
/// else the ``responses`` stream. Handlers run one at a time, in the order the user acted; a handler's return
/// marks the action handled. Typed text reaches that one place only and is never logged.
///
/// Inside a Flatpak or a Snap the center posts through the XDG notification portal instead of the notification
/// server (see ``NotificationPath``), with the same API; ``Configuration/path`` forces one path.
public actor DesktopNotificationCenter {
    /// How a center presents notifications and where it reaches the desktop.
    public struct Configuration: Sendable {
        /// The application name sent with every notification that does not name its own.
        public var appName: String
        /// The application's desktop entry id (without `.desktop`): raised by foreground actions, and where badges go.
        public var desktopEntry: String?
        /// Where destructive actions go and how they are marked.
        public var rendering: NotificationRendering
        /// A command (argv, never a shell string) that asks for typed text where the server has no inline reply;
        /// `nil` uses the first of zenity, kdialog and yad found on `PATH`.
        public var promptCommand: [String]?
        /// Whether foreground actions raise the application named by the content's or the configuration's desktop
        /// entry.
        public var activatesApplications: Bool
        /// Where the center logs (at debug level for each notification, info for server restarts).
        public var logger: Logger
        /// How long the notification server may take to answer a call (`Notify`, `GetServerInformation`, …) before
        /// the call fails with `org.freedesktop.DBus.Error.NoReply`.
        public var serverTimeout: Duration = .seconds(10)
        /// Where notifications go; `nil` chooses by sandbox (``NotificationPath/detected``): the XDG notification
        /// portal inside a Flatpak or a Snap, the notification server elsewhere. Set it to force one path.
        public var path: NotificationPath?
        /// Where the user's per-app notification settings are read (see ``NotificationSettingsLocation``). They decide
        /// whether and how each notification shows, as they do for the daemon's:
        /// ``DesktopNotificationCenter/post(_:id:hints:handler:)`` throws ``NotificationNotAllowedError`` when they
        /// keep one off the screen. `nil` applies none (for an owner that applies them itself, as the daemon does).
        /// Not used on the portal path, where the desktop's own settings apply.
        public var settingsLocation: NotificationSettingsLocation? = .automatic
        /// The folder of the bridge's own settings file; `nil` for `$XDG_CONFIG_HOME/notification-bridge`.
        public var settingsDirectory: String?
        /// On the portal path, the app id (its desktop id) of an app that D-Bus activation starts: its desktop file
        /// says `DBusActivatable=true`, and a D-Bus service file of that name starts it (in a Flatpak, both come with
        /// the app; the id is `FLATPAK_ID`). The center then owns that name and exports `org.freedesktop.Application`,
        /// and the portal activates the user's actions on it: a response reaches the app even when it was not
        /// running, in the run the portal starts. That run gets the response once its categories are set. `nil` (the
        /// default): responses come only while the app runs.
        public var activatableAppID: String?

        /// Makes a configuration.
        public init(
            appName: String, desktopEntry: String? = nil, rendering: NotificationRendering = .init(),
            promptCommand: [String]? = nil, activatesApplications: Bool = true,
            logger: Logger = Logger(label: "io.github.NotificationBridge")
        ) {
            self.appName = appName
            self.desktopEntry = desktopEntry
            self.rendering = rendering
            self.promptCommand = promptCommand
            self.activatesApplications = activatesApplications
            self.logger = logger
        }
    }

    /// Runs when the user responds to a notification; its return marks the response handled.
    public typealias ResponseHandler = @Sendable (NotificationResponse) async -> Void

    /// A notification the center has delivered and that is still on the server.
    public struct DeliveredNotification: Sendable, Hashable {
        /// The center's id for it.
        public var id: String
        /// The server's current id for it; 0 through the portal, which has no ids of its own.
        public var serverID: UInt32
        /// What was posted.
        public var content: NotificationContent
    }

    /// A notification left the server.
    public struct Closure: Sendable, Hashable {
        /// The center's id for it.
        public var id: String
        /// The reason the server gave.
        public var reason: NotificationCloseReason
        /// Whether the user acted on it before it closed.
        public var acted: Bool
        /// Whether it counts as the user dismissing it.
        public var dismissed: Bool
    }

    let configuration: Configuration
    var logger: Logger { configuration.logger }
    /// The session-bus connection that posts and listens.
    public nonisolated let connection: DBusConnection
    /// The portal's client, encoder and router, when notifications go through the XDG portal.
    var portal: PortalPath?
    /// Actions the portal activated on the app before its categories were set, in order.
    var heldActivations: [PortalSignal] = []
    /// The conversation with the notification server; `nil` on the portal's path.
    let session: NotificationServerSession?
    /// The portal's description of itself, on the portal's path.
    private nonisolated let portalInfo: NotificationServerInfo?
    var categories: [String: NotificationCategory] = [:]
    var notificationHandlers: [String: ResponseHandler] = [:]
    private var actionHandlers: [String: ResponseHandler] = [:]
    private var categoryHandlers: [String: ResponseHandler] = [:]
    let prompt: TextPrompt
    private let lockMonitor: SessionLockMonitor
    let lockGate: LockGate
    private let activator: AppActivator
    let badges: BadgeEmitter
    /// The user's notification settings, when ``Configuration/settingsLocation`` asks for them.
    let settings: CachedSettings?
    private var nextNumber: UInt64 = 1
    /// This process's id, read once: every id the center makes starts with it.
    private let idPrefix = "\(getpid())-"
    /// The handlers of notifications that closed while a prompt for their text was open, kept for the text.
    private var promptHandlers: [String: ResponseHandler] = [:]
    /// The notifications put off by a snooze button, to be shown again once their interval has passed.
    var snoozing: Set<String> = []
    /// The watchers of the desktop's do-not-disturb that streams of ``desktopDoNotDisturbChanges()`` run, told of
    /// each change of server the session reports.
    var doNotDisturbWatchers: [ObjectIdentifier: DesktopDoNotDisturbWatcher] = [:]

    /// Responses that no handler took, in the order the user acted.
    public nonisolated let responses: AsyncStream<NotificationResponse>
    private let responseContinuation: AsyncStream<NotificationResponse>.Continuation
    /// What happens to notifications besides responses, in order: their closures, whatever the reason.
    public nonisolated let events: AsyncStream<NotificationEvent>
    let eventContinuation: AsyncStream<NotificationEvent>.Continuation
    /// Work that outlives the call that started it (open prompts of the portal's path, removals after an action), all
    /// children of the task group of ``run()`` with the session's own work, so that the end of ``run()`` ends every
    /// piece and nothing accumulates.
    let work: AsyncStream<@Sendable () async -> Void>.Continuation
    /// The work ``run()`` takes, in the order it came.
    private let jobs: AsyncStream<@Sendable () async -> Void>
    /// Whether ``run()`` has started: it runs once.
    private var hasRun = false

    /// Connects to the session bus (and the system bus, to follow the screen lock) and to the notification server.
    ///
    /// - Throws: `DBusFailure` when the session bus or the notification server cannot be reached.
    public static func connect(_ configuration: Configuration) async throws -> DesktopNotificationCenter {
        let session = try await DBusConnection.connect(to: .session)
        let system = try? await DBusConnection.connect(to: .system)
        return try await DesktopNotificationCenter(connection: session, systemConnection: system, configuration)
    }

    /// Makes a center on existing connections.
    ///
    /// - Parameters:
    ///   - connection: the session bus; the center posts and listens on it.
    ///   - systemConnection: the system bus, where logind says whether the session is locked; `nil` to rely on the
    ///     session's screen saver alone.
    ///   - configuration: the app's name and desktop entry, and how notifications are presented.
    /// - Throws: `DBusFailure` when the notification server does not answer.
    public init(
        connection: DBusConnection, systemConnection: DBusConnection?, _ configuration: Configuration
    ) async throws {
        self.connection = connection
        self.configuration = configuration
        self.prompt = TextPrompt(command: configuration.promptCommand)
        if (configuration.path ?? .detected) == .portal {
            let portal = try await PortalPath.open(on: connection, configuration, promptAvailable: prompt.isAvailable)
            self.portal = portal
            self.portalInfo = portal.encoder.portal.serverInfo
            self.session = nil
        } else {
            self.portalInfo = nil
            self.session = try await NotificationServerSession(
                connection: connection,
                configuration: .init(
                    rendering: configuration.rendering, promptCommand: configuration.promptCommand,
                    serverTimeout: configuration.serverTimeout, logger: configuration.logger))
        }
        self.lockMonitor = await SessionLockMonitor.find(system: systemConnection, session: connection)
        self.lockGate = LockGate(monitor: lockMonitor)
        self.activator = AppActivator(connection: connection)
        self.badges = BadgeEmitter(connection: connection)
        self.settings = portal == nil ? await Self.openSettings(configuration) : nil
        (responses, responseContinuation) = AsyncStream.makeStream(of: NotificationResponse.self)
        (events, eventContinuation) = AsyncStream.makeStream(of: NotificationEvent.self)
        let (jobs, work) = AsyncStream.makeStream(of: (@Sendable () async -> Void).self)
        self.work = work
        self.jobs = jobs
        if let session {
            let events = session.events
            work.yield { [weak self] in
                for await event in events {
                    guard let self else { return }
                    await self.handle(event)
                }
            }
            return
        }
        if let portal {
            startListening(to: try await portal.client.signals())
            if let appID = configuration.activatableAppID { try await exportApplication(appID: appID) }
            logger.debug(
                "posting through the XDG portal",
                metadata: [
                    "portal.version": "\(portal.encoder.portal.version)"
                ])
            return
        }
    }

    deinit {
        work.finish()
        session?.finish()
        // Also when run() never ran.
        responseContinuation.finish()
        eventContinuation.finish()
    }

    /// Runs the center's work until the task that runs it is cancelled: the server's signals and the responses they
    /// bring, the screen lock, the settings file, open prompts and what follows an action. Run it once, in a task group
    /// of the app's, for as long as the center is used; until it runs, no response is delivered. When it ends, nothing
    /// of the center is left running (open prompts end too), the settings file is let go, and ``responses`` and
    /// ``events`` finish; the connection stays open (close it yourself).
    public func run() async {
        guard !hasRun else { return }
        hasRun = true
        let (session, settings, lockMonitor, lockGate, jobs) = (
            self.session, self.settings, self.lockMonitor, self.lockGate, self.jobs
        )
        await withDiscardingTaskGroup { group in
            group.addTask { await lockMonitor.run() }
            group.addTask { await lockGate.run() }
            if let session { group.addTask { await session.run() } }
            if let settings { group.addTask { await settings.run() } }
            // Ends when the task is cancelled.
            for await job in jobs { group.addTask(operation: job) }
            group.cancelAll()
        }
        await settings?.close()
        responseContinuation.finish()
        eventContinuation.finish()
    }

    // MARK: Server

    /// Whether a notification server has answered and has not left the bus since (always true on the portal's path).
    public var isServerAvailable: Bool {
        get async { await session?.isServerAvailable ?? true }
    }

    /// What ``serverInformation()`` reports while no server has answered: empty names, no capabilities.
    public static let noServer = NotificationServerSession.noServer

    /// The notification server's name, version and capabilities (``noServer`` while none has answered).
    public func serverInformation() -> NotificationServerInfo { latestServerInformation }

    /// The same as ``serverInformation()``, read without waiting for the center: what it knew a moment ago, for
    /// readers that must answer at once (a D-Bus property's getter).
    public nonisolated var latestServerInformation: NotificationServerInfo {
        portalInfo ?? session?.latestServerInformation ?? Self.noServer
    }

    /// How a text-input action is shown on the current server.
    public func textInputRendering(for action: NotificationAction) async -> TextInputRendering {
        if let portal { return portal.encoder.textInputRendering(for: action) }
        return await session?.textInputRendering(for: action) ?? .hidden
    }

    /// The program that asks for typed text where the server has no inline reply, or `nil` when none is found.
    public nonisolated var promptProgram: String? { prompt.programName }

    /// Whether the prompt can be shown: its program is found and, for zenity, kdialog and yad, there is a display.
    public nonisolated var isPromptAvailable: Bool { prompt.isAvailable }

    /// Where the center learns that the session is locked.
    package nonisolated var lockSource: SessionLockMonitor.Source { lockMonitor.source }

    /// Whether the session is locked now, as the center's lock source last said.
    package nonisolated var isSessionLocked: Bool { lockMonitor.isLockedNow }

    /// The rendering choices in force.
    public var rendering: NotificationRendering { configuration.rendering }

    // MARK: Categories and handlers

    /// Registers the categories notifications can refer to, replacing the ones registered before.
    ///
    /// - Throws: `NotificationValidationError` saying which category is wrong and what to change.
    public func setNotificationCategories(_ categories: [NotificationCategory]) throws {
        try NotificationCategory.validate(categories)
        self.categories = Dictionary(uniqueKeysWithValues: categories.map { ($0.id, $0) })
        releaseHeldActivations()
    }

    /// Registers or replaces one category.
    public func register(_ category: NotificationCategory) throws {
        try category.validate()
        categories[category.id] = category
        try NotificationCategory.validate(Array(categories.values))
    }

    /// Removes a category; notifications already posted with it keep working.
    public func removeCategory(id: String) {
        categories[id] = nil
    }

    /// The registered categories, by id.
    public func notificationCategories() -> [NotificationCategory] {
        categories.values.sorted { $0.id < $1.id }
    }

    /// Sets the handler for one action, in one category or (with `nil`) wherever the action id appears.
    public func setHandler(
        forAction actionID: String, inCategory categoryID: String? = nil, _ handler: @escaping ResponseHandler
    ) {
        actionHandlers[Self.actionKey(actionID, categoryID)] = handler
    }

    /// Sets the handler for every response to notifications of a category that no action handler takes.
    public func setHandler(forCategory categoryID: String, _ handler: @escaping ResponseHandler) {
        categoryHandlers[categoryID] = handler
    }

    private static func actionKey(_ actionID: String, _ categoryID: String?) -> String {
        (categoryID ?? "") + "\u{0}" + actionID
    }

    // MARK: Posting

    /// Shows a notification now, or updates the one with the same `id`.
    ///
    /// - Parameters:
    ///   - content: what to show; its app name and desktop entry default to the configuration's.
    ///   - id: the center's id for it; a new one is made when `nil`. Posting again with the same id replaces it.
    ///   - hints: server hints of the caller's own, sent after the bridge's, so that they win over the hints the
    ///     bridge sets itself.
    ///   - handler: a handler for this notification alone, ahead of action and category handlers.
    /// - Returns: the id.
    /// - Throws: `NotificationValidationError` for content that breaks a rule (the message says what to change),
    ///   ``NotificationNotAllowedError`` when the user's settings keep it off the screen (nothing is sent),
    ///   `DBusFailure` when the server refuses it.
    @discardableResult
    public func post(
        _ content: NotificationContent, id: String? = nil, hints: [String: DBusValue] = [:],
        handler: ResponseHandler? = nil
    ) async throws -> String {
        var content = content
        if content.appName == nil { content.appName = configuration.appName }
        if content.desktopEntry == nil { content.desktopEntry = configuration.desktopEntry }
        let registered = categories
        try content.validate(isCategoryRegistered: { registered[$0] != nil })
        content.snoozeIntervals =
            content.snoozeIntervals ?? content.categoryID.flatMap { registered[$0] }?.snoozeIntervals ?? []
        content = try await allowedBySettings(content)
        let id = id ?? makeID()
        // Posted again while snoozed: this one takes its place, and the snoozed one does not come back.
        snoozing.remove(id)
        guard let session else {
            return try await postThroughPortal(content, id: id, hints: hints, handler: handler)
        }
        let category = content.categoryID.flatMap { registered[$0] }
        try await session.post(content, category: category, id: id, hints: hints)
        if let handler { notificationHandlers[id] = handler }
        if let badge = content.badge, let entry = content.desktopEntry {
            try? badges.setBadge(badge, desktopEntry: entry)
        }
        return id
    }

    func makeID() -> String {
        defer { nextNumber += 1 }
        return idPrefix + String(nextNumber)
    }

    /// Closes a delivered notification; a response waiting for the screen to unlock is dropped with it.
    public func withdraw(id: String) async {
        snoozing.remove(id)
        await lockGate.drop(notificationID: id)
        notificationHandlers[id] = nil
        guard let session else {
            await withdrawFromPortal(id: id)
            return
        }
        await session.withdraw(id: id)
    }

    /// Closes every delivered notification of this center.
    public func withdrawAll() async {
        snoozing.removeAll()
        let ids = await session?.shownIDs ?? portal?.router.all.map(\.id) ?? []
        for id in ids { await withdraw(id: id) }
    }

    /// The notifications delivered and still on the server.
    public func deliveredNotifications() async -> [DeliveredNotification] {
        guard let session else {
            // The portal has no ids of its own: the server id is 0.
            return (portal?.router.all ?? []).map { DeliveredNotification(id: $0.id, serverID: 0, content: $0.content) }
                .sorted { $0.id < $1.id }
        }
        return await session.shownNotifications().map {
            DeliveredNotification(id: $0.id, serverID: $0.serverID, content: $0.content)
        }.sorted { $0.id < $1.id }
    }

    /// Sets or clears the application's badge, where the dock shows one.
    public func setBadge(_ count: Int?) throws {
        guard let entry = configuration.desktopEntry else { return }
        try badges.setBadge(count, desktopEntry: entry)
    }

    // MARK: Responses

    /// Takes in one event of the session: a response goes to its handler, a closure to ``events``.
    private func handle(_ event: SessionEvent) async {
        switch event {
        case .snoozed(let snooze):
            await self.snooze(snooze)
        case .responded(let answer):
            let id = answer.notification.id
            let chosen = answer.fromPrompt ? promptHandlers[id] : nil
            await deliver(
                answer.notification, answer.action, actionID: answer.actionID, text: answer.text, token: answer.token,
                handler: chosen)
            if answer.fromPrompt, answer.text != nil {
                promptHandlers[id] = nil
            } else if answer.actionID == NotificationResponse.dismissActionID && !answer.fromPrompt {
                // The dismissal follows the closure, whose handler was kept for it.
                notificationHandlers[id] = nil
            }
        case .closed(let closure):
            let id = closure.notification.id
            // A snoozed notification leaving the screen is the center's own doing: the app hears nothing of it.
            guard !snoozing.contains(id) else { return }
            eventContinuation.yield(
                .closed(
                    Closure(id: id, reason: closure.reason, acted: closure.acted, dismissed: closure.dismissed)))
            if closure.awaitsPrompt, let handler = notificationHandlers[id] { promptHandlers[id] = handler }
            let dismissalFollows = closure.dismissed && closure.notification.category?.reportsDismissal == true
            if !dismissalFollows { notificationHandlers[id] = nil }
        case .promptEnded(let ending):
            promptHandlers[ending.notification.id] = nil
        case .serverChanged(let owner):
            for watcher in doNotDisturbWatchers.values { watcher.serverChanged(owner: owner, info: nil) }
        case .serverReady(let owner, let info):
            for watcher in doNotDisturbWatchers.values { watcher.serverChanged(owner: owner, info: info) }
        case .reposted:
            break
        }
    }

    /// Opens the prompt for a text-input action on the portal's path; the user may take minutes, so it does not hold
    /// up other signals.
    func askForText(_ notification: any FollowedNotification, _ action: NotificationAction, token: String?) {
        let request = TextPromptRequest(notification: notification, action: action)
        let prompt = self.prompt
        // Chosen now: the notification is forgotten long before the user has typed.
        let handler = self.handler(for: notification, actionID: action.id)
        let dismissHandler = self.handler(for: notification, actionID: NotificationResponse.dismissActionID)
        work.yield { [weak self] in
            let text: String?
            do { text = try await prompt.typedText(for: request) } catch { return }  // the task was cancelled
            await self?.promptReturned(
                notification, action, text: text, token: token, handler: handler, dismissHandler: dismissHandler)
        }
    }

    /// Delivers the text typed in the prompt; a prompt that returned none ends the action without a response (a
    /// category that reports dismissals gets its `dismiss`).
    private func promptReturned(
        _ notification: any FollowedNotification, _ action: NotificationAction, text: String?, token: String?,
        handler: ResponseHandler?, dismissHandler: ResponseHandler?
    ) async {
        if let text {
            await deliver(notification, action, actionID: action.id, text: text, token: token, handler: handler)
            return
        }
        logger.debug("prompt ended without text", metadata: ["notification.id": "\(notification.id)"])
        if notification.category?.reportsDismissal == true {
            await deliver(
                notification, nil, actionID: NotificationResponse.dismissActionID, text: nil, token: nil,
                handler: dismissHandler)
        }
    }

    func deliver(
        _ notification: any FollowedNotification, _ action: NotificationAction?, actionID: String, text: String?,
        token: String?, handler chosen: ResponseHandler? = nil
    ) async {
        let answer = SessionResponse(
            notification: notification, action: action, actionID: actionID, text: text, token: token,
            fromPrompt: false)
        let response = answer.response
        let handler = chosen ?? handler(for: notification, actionID: actionID)
        let entry = configuration.activatesApplications && answer.isForeground ? notification.content.desktopEntry : nil
        let activator = self.activator
        let continuation = responseContinuation
        let logger = self.logger
        await lockGate.deliver(notificationID: notification.id, requiresAuthentication: answer.requiresAuthentication) {
            if let entry {
                do {
                    try await activator.activate(desktopEntry: entry, token: token)
                } catch {
                    logger.warning(
                        "cannot raise the application",
                        metadata: [
                            "app.desktop-entry": "\(entry)", "error": "\(error)",
                        ])
                }
            }
            if let handler {
                await handler(response)
            } else {
                continuation.yield(response)
            }
        }
    }

    private func handler(for notification: any FollowedNotification, actionID: String) -> ResponseHandler? {
        if let handler = notificationHandlers[notification.id] { return handler }
        let categoryID = notification.category?.id
        if let categoryID, let handler = actionHandlers[Self.actionKey(actionID, categoryID)] { return handler }
        if let handler = actionHandlers[Self.actionKey(actionID, nil)] { return handler }
        if let categoryID, let handler = categoryHandlers[categoryID] { return handler }
        return nil
    }
}
