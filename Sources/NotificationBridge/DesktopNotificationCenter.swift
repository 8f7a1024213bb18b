import DBusCore
import FoundationEssentials
import Glibc
import Logging
import NotificationModel
import Synchronization

/// Posts actionable notifications to the desktop's notification server and delivers the user's responses to
/// handlers — the Linux counterpart of `UNUserNotificationCenter`.
///
/// ```swift
/// let center = try await DesktopNotificationCenter.connect(.init(appName: "Mail", desktopEntry: "org.example.Mail"))
/// try center.setNotificationCategories([messageCategory])
/// await center.setHandler(forAction: "reply", inCategory: "message") { response in
///     print("reply:", response.userText ?? "")
/// }
/// let id = try await center.post(NotificationContent(title: "New mail", body: "From Ann", categoryID: "message"))
/// ```
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
        /// Whether the center starts when no notification server answers (a daemon that keeps scheduled
        /// notifications until one appears); ``DesktopNotificationCenter/post(_:id:hints:handler:)`` then fails until a
        /// server is there. When `false`, the initializer throws instead.
        public var startsWithoutServer: Bool = false
        /// Where zenity, kdialog and yad are looked for when no ``promptCommand`` is set, in `PATH` syntax; `nil` uses
        /// this process's `PATH`, and an empty string finds none (text-input actions then follow their fallback).
        public var promptSearchPath: String?
        /// Whether responses come as ``NotificationEvent/responded(_:)`` on ``DesktopNotificationCenter/events``
        /// instead of going to handlers: for an owner that follows each notification through one ordered stream
        /// (the daemon). Handlers and ``DesktopNotificationCenter/responses`` then get nothing.
        public var deliversResponsesAsEvents: Bool = false
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
    let server: NotificationServerClient
    /// The portal's client, encoder and router, when notifications go through the XDG portal.
    var portal: PortalPath?
    /// Actions the portal activated on the app before its categories were set, in order.
    var heldActivations: [PortalSignal] = []
    private(set) var serverInfo: NotificationServerInfo {
        didSet { serverInfoCopy.withLock { $0 = serverInfo } }
    }
    /// ``serverInfo``, kept for readers that may not wait for the actor (a D-Bus property's getter).
    private nonisolated let serverInfoCopy: Mutex<NotificationServerInfo>
    /// Whether ``serverInfo`` came from a server (false while none has answered since the start).
    private var hasServer: Bool
    /// The unique bus name of the server's connection, as the name-owner stream last reported it; `nil` while no
    /// server owns the name.
    ///
    /// Server ids are meaningful only to the instance that issued them: a restarted server, or one of another
    /// session, has a new unique name and numbers its notifications anew. A notification posted to this server is not
    /// posted again when the center takes in the same server's arrival later (see ``serverOwnerChanged(_:)``).
    package private(set) var serverOwner: String?
    /// The unique bus name of the process that shows the notifications, where the server names one apart from itself
    /// (see ``displayKeptNotifications()``).
    var displayOwner: String?
    private var encoder: NotifyEncoder
    private var router = ResponseRouter()
    /// `Notify` calls whose reply has not been read yet.
    private var notifiesInFlight = 0
    /// Signals about server ids not followed yet, held while a `Notify` is in flight: a server may act on a
    /// notification, or close it, before the bridge has read the id it returned.
    private var earlySignals: [ReceivedServerSignal] = []
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
    /// This process's id, read once: every `Notify` carries it (`sender-pid`), and every id the center makes starts
    /// with it.
    private let processID = Int64(getpid())
    private lazy var idPrefix = "\(processID)-"

    /// Responses that no handler took, in the order the user acted.
    public nonisolated let responses: AsyncStream<NotificationResponse>
    private let responseContinuation: AsyncStream<NotificationResponse>.Continuation
    /// What happens to notifications besides responses, in order: closures (whatever the reason), prompts that ended
    /// without text, and posts again to a restarted server.
    public nonisolated let events: AsyncStream<NotificationEvent>
    let eventContinuation: AsyncStream<NotificationEvent>.Continuation
    /// Work that outlives the call that started it (the signal and owner loops, open prompts, closes after an
    /// action), all children of one task group, so that ``stop()`` ends every piece and nothing accumulates.
    let work: AsyncStream<@Sendable () async -> Void>.Continuation
    private let session: Task<Void, Never>

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
        self.server = NotificationServerClient(connection: connection, timeout: configuration.serverTimeout)
        self.prompt = TextPrompt(command: configuration.promptCommand, searchPath: configuration.promptSearchPath)
        var info = Self.noServer
        if (configuration.path ?? .detected) == .portal {
            let portal = try await PortalPath.open(on: connection, configuration, promptAvailable: prompt.isAvailable)
            self.portal = portal
            info = portal.encoder.portal.serverInfo
            self.hasServer = true
        } else {
            do {
                info = try await server.serverInfo()
                self.hasServer = true
            } catch let failure as DBusFailure {
                guard configuration.startsWithoutServer else { throw Self.noServerFailure(failure) }
                self.hasServer = false
                configuration.logger.warning(
                    "no notification server answers yet; waiting for one",
                    metadata: [
                        "error": "\(failure.message)"
                    ])
            }
        }
        self.serverInfoCopy = Mutex(info)
        self.serverInfo = info
        self.router.server = info
        self.encoder = NotifyEncoder(
            server: info, rendering: configuration.rendering, promptAvailable: prompt.isAvailable)
        self.lockMonitor = await SessionLockMonitor.start(system: systemConnection, session: connection)
        self.lockGate = LockGate(monitor: lockMonitor)
        self.activator = AppActivator(connection: connection)
        self.badges = BadgeEmitter(connection: connection)
        self.settings = portal == nil ? await Self.openSettings(configuration) : nil
        (responses, responseContinuation) = AsyncStream.makeStream(of: NotificationResponse.self)
        (events, eventContinuation) = AsyncStream.makeStream(of: NotificationEvent.self)
        let (jobs, work) = AsyncStream.makeStream(of: (@Sendable () async -> Void).self)
        self.work = work
        session = Task {
            await withDiscardingTaskGroup { group in
                for await job in jobs { group.addTask(operation: job) }
                group.cancelAll()
            }
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
        let signals = try await server.signals()
        let owners = try await connection.nameOwnerChanges(of: NotificationServerClient.busName)
        // Read after subscribing, so that a change in between comes through the stream.
        serverOwner = try? await connection.nameOwner(of: NotificationServerClient.busName)
        if hasServer { _ = await displayKeptNotifications() }
        startListening(signals: signals, owners: owners)
        logger.debug(
            "notification server", metadata: ["server.name": "\(info.name)", "server.version": "\(info.version)"])
    }

    private func startListening(signals: AsyncStream<ReceivedServerSignal>, owners: AsyncStream<String?>) {
        // One loop per stream, so that signals are handled in the order they came.
        work.yield { [weak self] in
            for await signal in signals {
                guard let self else { return }
                await self.process(signal)
            }
        }
        work.yield { [weak self] in
            for await owner in owners {
                guard let self else { return }
                await self.serverOwnerChanged(owner)
            }
        }
    }

    deinit {
        work.finish()
        session.cancel()
    }

    /// Stops listening, ends open prompts and finishes the streams. The connection stays open.
    public func stop() async {
        work.finish()
        session.cancel()
        await session.value
        await settings?.close()
        responseContinuation.finish()
        eventContinuation.finish()
    }

    // MARK: Server

    /// Whether a notification server has answered and has not left the bus since.
    public var isServerAvailable: Bool { hasServer }

    /// What ``serverInformation()`` reports while no server has answered: empty names, no capabilities.
    public static let noServer = NotificationServerInfo(
        name: "", vendor: "", version: "", specVersion: "", capabilities: [])

    private static func noServerFailure(_ failure: DBusFailure) -> DBusFailure {
        DBusFailure(
            name: failure.name,
            message: "no notification server answered on the session bus (\(failure.message)); start one, "
                + "such as dunst, xfce4-notifyd or the desktop's own")
    }

    /// Asks the server for its information again when none had answered yet.
    ///
    /// - Throws: `DBusFailure` saying that no notification server runs, when it still does not answer.
    private func ensureServer() async throws {
        guard !hasServer else { return }
        do {
            // The name's owner first: the server that answers below is that one or a later one, never an earlier.
            let owner = try await connection.nameOwner(of: NotificationServerClient.busName)
            serverInfo = try await server.serverInfo()
            serverOwner = owner
            encoder.server = serverInfo
            router.server = serverInfo
            hasServer = true
        } catch let failure as DBusFailure {
            throw Self.noServerFailure(failure)
        }
    }

    /// The notification server's name, version and capabilities (``noServer`` while none has answered).
    public func serverInformation() -> NotificationServerInfo { serverInfo }

    /// The same as ``serverInformation()``, read without waiting for the center: what it knew a moment ago, for
    /// readers that must answer at once (the daemon's `ServerName` property).
    public nonisolated var latestServerInformation: NotificationServerInfo { serverInfoCopy.withLock { $0 } }

    /// How a text-input action is shown on the current server.
    public func textInputRendering(for action: NotificationAction) -> TextInputRendering {
        portal?.encoder.textInputRendering(for: action) ?? encoder.textInputRendering(for: action)
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
        content = try await allowedBySettings(content)
        if portal != nil {
            return try await postThroughPortal(content, id: id ?? makeID(), hints: hints, handler: handler)
        }
        try await ensureServer()
        let category = content.categoryID.flatMap { registered[$0] }
        let id = id ?? makeID()
        let encoded = encoder.encode(
            content, category: category, replacesID: router.serverID(of: id) ?? 0, senderPID: processID,
            extraHints: hints)
        notifiesInFlight += 1
        let sentAt = ContinuousClock.now
        let serverID: UInt32
        // The server that took it, from its reply: a new server may own the name before the center hears of it,
        // and one recorded from that older news would be shown the notification a second time when the news comes.
        let postedTo: String
        do {
            (serverID, postedTo) = try await server.notify(encoded.request)
        } catch {
            await notifyEnded()
            throw error
        }
        router.follow(
            PostedNotification(
                id: id, serverID: serverID, content: content, category: category, hints: hints, encoded: encoded,
                serverOwner: postedTo, sentAt: sentAt))
        if let handler { notificationHandlers[id] = handler }
        await notifyEnded()
        endWhenExpired(id: id, serverID: serverID, timeout: content.timeout)
        if let badge = content.badge, let entry = content.desktopEntry {
            try? badges.setBadge(badge, desktopEntry: entry)
        }
        logger.debug("posted", metadata: ["notification.id": "\(id)", "notification.server-id": "\(serverID)"])
        return id
    }

    /// Posts like ``post(_:id:hints:handler:)`` and says where the notification went: the server's id for it, and the
    /// unique bus name of the server that took it (`nil` when the center did not know it).
    package func place(
        _ content: NotificationContent, id: String, hints: [String: DBusValue] = [:]
    ) async throws -> (serverID: UInt32, server: String?) {
        try await post(content, id: id, hints: hints)
        guard let posted = router.notification(id: id) else {
            // Closed before this returned (the server ended it at once): nothing on the server to place.
            return (0, serverOwner)
        }
        return (posted.serverID, posted.serverOwner)
    }

    /// Shows an adopted notification again from this connection (see ``adopt(id:serverID:content:handler:)``), so
    /// that servers which send their signals to the poster alone send them here; says where it went, as
    /// ``place(_:id:hints:)`` does.
    ///
    /// Where the server shows notifications through a process of its own (``NotificationServerInfo/displayBusName``:
    /// GNOME Shell), replacing keeps the banner but GNOME Shell 43 drops its buttons: the copy is closed and shown
    /// anew instead. Its close goes to the last poster, which is gone, so it ends nothing here.
    package func showAgain(
        _ content: NotificationContent, id: String
    ) async throws -> (serverID: UInt32, server: String?) {
        try await ensureServer()
        if serverInfo.displayBusName != nil, let shown = router.forget(id: id) {
            try? await server.closeNotification(shown.serverID)
        }
        return try await place(content, id: id)
    }

    /// Takes back a notification that an earlier run of the program posted and that the server still shows (servers
    /// with the `persistence` capability keep notifications after their sender leaves), so that the user's response
    /// to it is routed like one posted now.
    ///
    /// Nothing is sent to the server. Signals for the notification arrive only from servers that broadcast them
    /// (Plasma, mako, xfce4-notifyd, SwayNotificationCenter); those that send them to the original sender alone
    /// (GNOME Shell, dunst) cannot reach a new connection: to be heard there too, post it again with the same id and
    /// content after adopting it, which replaces it in place from this connection (the daemon does so when it
    /// starts). A server restart posts it again, like any outstanding one.
    ///
    /// - Parameters:
    ///   - id: the center's id for it, as ``post(_:id:hints:handler:)`` returned it then.
    ///   - serverID: the server's id for it, as ``deliveredNotifications()`` reported it then.
    ///   - content: what was posted; its category is looked up among the categories registered now.
    ///   - handler: a handler for this notification alone, as in ``post(_:id:hints:handler:)``.
    public func adopt(
        id: String, serverID: UInt32, content: NotificationContent, handler: ResponseHandler? = nil
    ) {
        let category = content.categoryID.flatMap { categories[$0] }
        if portal != nil {
            adoptFromPortal(id: id, content: content, category: category, handler: handler)
            return
        }
        let encoded = encoder.encode(content, category: category, senderPID: processID)
        router.follow(
            PostedNotification(
                id: id, serverID: serverID, content: content, category: category, encoded: encoded))
        if let handler { notificationHandlers[id] = handler }
        logger.debug("adopted", metadata: ["notification.id": "\(id)", "notification.server-id": "\(serverID)"])
    }

    /// The server's current id for a delivered notification, or `nil` when it is not on the server.
    public func serverID(of id: String) -> UInt32? {
        router.notification(id: id)?.serverID
    }

    func makeID() -> String {
        defer { nextNumber += 1 }
        return idPrefix + String(nextNumber)
    }

    /// Closes a delivered notification; a response waiting for the screen to unlock is dropped with it.
    public func withdraw(id: String) async {
        await lockGate.drop(notificationID: id)
        notificationHandlers[id] = nil
        if portal != nil {
            await withdrawFromPortal(id: id)
            return
        }
        guard let notification = router.forget(id: id) else { return }
        try? await server.closeNotification(notification.serverID)
        eventContinuation.yield(
            .closed(
                Closure(
                    id: id, reason: .closedByCall, acted: notification.acted, dismissed: false)))
    }

    /// Closes every delivered notification of this center.
    public func withdrawAll() async {
        for id in router.all.map(\.id) + (portal?.router.all.map(\.id) ?? []) {
            await withdraw(id: id)
        }
    }

    /// The notifications delivered and still on the server.
    public func deliveredNotifications() -> [DeliveredNotification] {
        let portalNotifications = portal?.router.all.map {
            // The portal has no ids of its own: the server id is 0.
            DeliveredNotification(id: $0.id, serverID: 0, content: $0.content)
        }
        return
            (portalNotifications
            ?? router.all.map {
                DeliveredNotification(id: $0.id, serverID: $0.serverID, content: $0.content)
            }).sorted { $0.id < $1.id }
    }

    /// Sets or clears the application's badge, where the dock shows one.
    public func setBadge(_ count: Int?) throws {
        guard let entry = configuration.desktopEntry else { return }
        try badges.setBadge(count, desktopEntry: entry)
    }

    // MARK: Responses

    /// Handles the signals held for the `Notify` that ended: those whose id is now followed, and, once no `Notify` is
    /// in flight, the rest (about notifications that are not the bridge's, which the router then ignores).
    private func notifyEnded() async {
        notifiesInFlight -= 1
        let isReady = { [router, notifiesInFlight] (received: ReceivedServerSignal) in
            notifiesInFlight == 0 || router.posted[received.signal.serverID] != nil
        }
        let ready = earlySignals.filter(isReady)
        earlySignals.removeAll(where: isReady)
        for signal in ready { await process(signal) }
    }

    private func process(_ received: ReceivedServerSignal) async {
        if notifiesInFlight > 0, router.posted[received.signal.serverID] == nil {
            earlySignals.append(received)
            return
        }
        guard let event = router.handle(received.signal, from: received.sender) else { return }
        switch event {
        case .action(let notification, let action, let token):
            closeAfterAction(notification)
            if let action, action.isTextInput, encoder.textInputRendering(for: action) == .prompt {
                askForText(notification, action, token: token)
                return
            }
            await deliver(
                notification, action, actionID: action?.id ?? NotificationResponse.defaultActionID,
                text: nil, token: token)
        case .reply(let notification, let action, let text, let token):
            closeAfterAction(notification)
            await deliver(notification, action, actionID: action.id, text: text, token: token)
        case .closed(let notification, let reason, let dismissal):
            let reportsDismissal = dismissal && notification.category?.reportsDismissal == true
            eventContinuation.yield(
                .closed(
                    Closure(
                        id: notification.id, reason: reason, acted: notification.acted, dismissed: dismissal)))
            if reportsDismissal {
                await deliver(notification, nil, actionID: NotificationResponse.dismissActionID, text: nil, token: nil)
            }
            notificationHandlers[notification.id] = nil
        }
    }

    /// On a server that lets notifications expire without `NotificationClosed` (notification-daemon), ends the
    /// notification as expired once its timeout has passed, and asks the server to close it: otherwise it would stay
    /// outstanding for ever (a `--wait` would never return) and be posted again, long expired, after a server restart.
    private func endWhenExpired(id: String, serverID: UInt32, timeout: NotificationTimeout) {
        guard !serverInfo.reportsExpiry, let lifetime = serverInfo.lifetime(of: timeout) else { return }
        work.yield { [weak self] in
            try? await Task.sleep(for: lifetime)
            guard !Task.isCancelled else { return }
            await self?.expiredUnreported(id: id, serverID: serverID)
        }
    }

    private func expiredUnreported(id: String, serverID: UInt32) async {
        // Answered, withdrawn, replaced or posted again since: that notification has a life of its own.
        guard router.notification(id: id)?.serverID == serverID else { return }
        logger.debug("expired without word from the server", metadata: ["notification.id": "\(id)"])
        await process(ReceivedServerSignal(signal: .closed(id: serverID, reason: .expired), sender: nil))
        try? await server.closeNotification(serverID)
    }

    /// Asks a server that leaves notifications up after an action to close this one, unless it is resident.
    private func closeAfterAction(_ notification: PostedNotification) {
        guard !notification.content.isResident else { return }
        router.markCloseRequested(id: notification.id)
        // The server may have closed it already, which makes the call fail harmlessly: no answer is waited for, so
        // the handler is not held up by a task that waits on the server.
        try? server.requestClose(notification.serverID)
    }

    /// Opens the prompt for a text-input action; the user may take minutes, so it does not hold up other signals.
    func askForText(_ notification: any FollowedNotification, _ action: NotificationAction, token: String?) {
        var submit: String?
        var placeholder: String?
        if case .textInput(let input) = action.behavior {
            submit = input.submitButtonTitle
            placeholder = input.placeholder
        }
        let request = TextPromptRequest(
            title: notification.content.title, message: notification.content.body,
            placeholder: placeholder ?? "", submitLabel: submit ?? action.title)
        let prompt = self.prompt
        // Chosen now: the server usually closes the notification after the action, which forgets its handler, long
        // before the user has typed.
        let handler = self.handler(for: notification, actionID: action.id)
        let dismissHandler = self.handler(for: notification, actionID: NotificationResponse.dismissActionID)
        work.yield { [weak self] in
            let text: String?
            do {
                text = try await prompt.ask(request)
            } catch is CancellationError {
                return
            } catch {
                // The prompt could not start: the same for the user as a cancelled one.
                text = nil
            }
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
        eventContinuation.yield(.promptEnded(id: notification.id))
    }

    func deliver(
        _ notification: any FollowedNotification, _ action: NotificationAction?, actionID: String, text: String?,
        token: String?, handler chosen: ResponseHandler? = nil
    ) async {
        let isDismissal = actionID == NotificationResponse.dismissActionID
        // The default action opens the application, like a foreground action.
        let foreground = !isDismissal && (action?.activation ?? .foreground) == .foreground
        // A background action raises nothing, so its token would be of no use to anyone.
        let response = NotificationResponse(
            notificationID: notification.id, actionID: actionID, userText: text,
            activationToken: foreground ? token : nil, userInfo: notification.content.userInfo)
        let requiresAuthentication = !isDismissal && (action?.requiresAuthentication ?? true)
        let handler = chosen ?? handler(for: notification, actionID: actionID)
        let entry = configuration.activatesApplications && foreground ? notification.content.desktopEntry : nil
        let activator = self.activator
        let continuation = responseContinuation
        let events = configuration.deliversResponsesAsEvents ? eventContinuation : nil
        let logger = self.logger
        logger.debug(
            "response",
            metadata: [
                "notification.id": "\(notification.id)", "notification.action": "\(actionID)",
                "response.has-text": "\(text != nil)",
            ])
        await lockGate.deliver(notificationID: notification.id, requiresAuthentication: requiresAuthentication) {
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
            if let events {
                events.yield(.responded(response))
            } else if let handler {
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

    // MARK: Server restarts

    /// The information of a server that has just taken the name.
    ///
    /// A service may own the name a moment before it exports its object: GNOME Shell's gjs service asks for
    /// `org.freedesktop.Notifications` first and exports once it holds its own name, and a call in between is answered
    /// `UnknownMethod` (`UnknownObject` or `UnknownInterface` by other bindings). Such an answer is asked again, a
    /// little later each time, for at most 5 s; any other failure is thrown at once.
    private func arrivingServerInfo() async throws -> NotificationServerInfo {
        let notExportedYet: Set = [
            DBusFailure.Name.unknownMethod, DBusFailure.Name.unknownObject, DBusFailure.Name.unknownInterface,
        ]
        let deadline = ContinuousClock.now + .seconds(5)
        var pause = Duration.milliseconds(10)
        while true {
            do {
                return try await server.serverInfo()
            } catch let failure as DBusFailure
                where notExportedYet.contains(failure.name) && ContinuousClock.now + pause < deadline
            {
                try await Task.sleep(for: pause)
                pause = min(pause * 2, .milliseconds(500))
            }
        }
    }

    private func serverOwnerChanged(_ owner: String?) async {
        // A new server numbers its notifications anew, and until it answers nothing is known of it.
        earlySignals = []
        serverInfo = Self.noServer
        serverOwner = owner
        guard owner != nil else {
            hasServer = false
            encoder.server = serverInfo
            logger.info("the notification server went away; notifications will be posted again when one returns")
            return
        }
        do {
            serverInfo = try await arrivingServerInfo()
            encoder.server = serverInfo
            router.server = serverInfo
            hasServer = true
        } catch {
            logger.warning("the new notification server does not answer", metadata: ["error": "\(error)"])
            return
        }
        let closesShownCopies = await displayKeptNotifications()
        // A notification posted to this very server, before the center took in its arrival (a post that found no
        // server known and asked the bus), is on it already: posting it again would show it twice.
        let outstanding = router.all.filter { $0.serverOwner != owner }
        logger.info(
            "notification server restarted; posting outstanding notifications again",
            metadata: [
                "server.name": "\(serverInfo.name)", "count": "\(outstanding.count)",
            ])
        for var notification in outstanding {
            let encoded = encoder.encode(
                notification.content, category: notification.category, senderPID: processID,
                extraHints: notification.hints)
            if closesShownCopies {
                // Replacing the copy would keep it in place, but GNOME Shell 43 then drops the buttons of a banner on
                // the screen: closed, and shown again below with buttons that answer.
                try? await server.closeNotification(notification.serverID)
            }
            notifiesInFlight += 1
            do {
                notification.sentAt = .now
                let placed = try await server.notify(encoded.request)
                notification.serverID = placed.id
                notification.encoded = encoded
                notification.acted = false
                notification.closeRequested = false
                notification.serverOwner = placed.server
                router.follow(notification)
                eventContinuation.yield(
                    .reposted(
                        DeliveredNotification(
                            id: notification.id, serverID: notification.serverID, content: notification.content)))
                endWhenExpired(
                    id: notification.id, serverID: notification.serverID, timeout: notification.content.timeout)
            } catch {
                logger.warning("cannot post again", metadata: ["notification.id": "\(notification.id)"])
            }
            await notifyEnded()
        }
    }
}
