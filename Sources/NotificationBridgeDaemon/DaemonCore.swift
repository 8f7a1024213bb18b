import DBusCore
import Foundation
import Logging
import NotificationBridge
import NotificationBridgeAPI
import NotificationModel

/// The daemon's state and the work behind each method of `io.github.NotificationBridge1`.
///
/// One ``DesktopNotificationCenter`` holds the connection to the notification server; this actor adds what the D-Bus
/// API needs on top: who posted each notification and under which app name, where its responses go, the
/// `WaitForResponse` calls waiting for them, and responses that arrived while nobody waited.
///
/// Method calls arrive one at a time (DBusCore runs handlers in order); responses and closures come from the center's
/// tasks, so every state change is made on this actor.
actor DaemonCore {
    /// What the daemon remembers of a notification that is showing.
    struct Posted: Sendable {
        var appName: String
        /// The unique name of the connection that posted it: the only one `Responded` and `Closed` go to.
        var poster: String
        var route: ResponseRoute
        var reportsDismissal: Bool
    }

    static let maximumWaits = 4096
    static let maximumCategories = NotificationLimits.maxCategories

    let connection: DBusConnection
    let center: DesktopNotificationCenter
    let activations: ApplicationActivations
    let logger: Logger
    let defaultAppName: String
    /// Scheduled notifications and categories, kept across restarts.
    let store: DaemonStore
    /// Fires scheduled notifications into ``fired(_:)``.
    let scheduler: Scheduler<ScheduledPost>

    var posted: [String: Posted] = [:]
    /// `WaitForResponse` calls not answered yet, by notification id.
    var waits: [String: [DBusMethodCall]] = [:]
    /// Responses for the posting connection that no `WaitForResponse` took yet, oldest first.
    var kept = RecentHistory<[BridgeResponse]>(capacity: 256)
    /// Why notifications that are no longer showing ended, for calls that name them late.
    var ended = RecentHistory<String>(capacity: 1024)
    /// `true` for notifications closed after an action whose response is still to come (typed text from the
    /// prompt), so that a `WaitForResponse` for them waits instead of failing; `false` once a response came.
    var responseComing = RecentHistory<Bool>(capacity: 1024)
    var stopping = false
    /// The scheduled notifications, as the scheduler holds them: who owns each, where its responses go.
    var scheduled: [String: Posted] = [:]
    /// Scheduled notifications that came due while no notification server ran, oldest first; shown when one appears.
    var awaitingServer: [ScheduledFiring<ScheduledPost>] = []
    /// The running apps that called `Attach`.
    var attachments = Attachments()
    /// Scheduled notifications handed to their frontmost app instead of shown, for `Present`.
    var handedToApp = RecentHistory<ScheduledPost>(capacity: 256)
    private var isRestored = false
    private var restoreWaiters: [CheckedContinuation<Void, Never>] = []

    init(
        connection: DBusConnection, center: DesktopNotificationCenter, activations: ApplicationActivations,
        defaultAppName: String, store: DaemonStore, scheduler: Scheduler<ScheduledPost>, logger: Logger
    ) {
        self.store = store
        self.scheduler = scheduler
        self.connection = connection
        self.center = center
        self.activations = activations
        self.defaultAppName = defaultAppName
        self.logger = logger
    }

    /// Returns once ``restore()`` has brought back the last run's state. The daemon owns its name before it restores
    /// (only the owner may fire what was scheduled), so a call that comes in between, such as the one that started
    /// it by D-Bus activation, waits here instead of seeing an empty schedule.
    func restored() async {
        if isRestored { return }
        await withCheckedContinuation { restoreWaiters.append($0) }
    }

    /// Lets the calls waiting in ``restored()`` go on.
    func finishRestoring() {
        isRestored = true
        for waiter in restoreWaiters { waiter.resume() }
        restoreWaiters = []
    }

    func checkRunning() throws(DBusFailure) {
        guard !stopping else {
            throw DBusFailure(
                name: BridgeError.shuttingDown,
                message: "notification-bridged is stopping; call again in a moment (D-Bus activation starts it anew)")
        }
    }

    // MARK: Categories

    func registerCategory(id: String, actions: DBusValue, options: DBusValue) async throws -> [DBusValue] {
        try checkRunning()
        let category = try CategoryCoding.decode(id: id, actions: actions, options: options)
        let registered = await center.notificationCategories()
        if !registered.contains(where: { $0.id == id }), registered.count >= Self.maximumCategories {
            throw DBusFailure(
                name: BridgeError.limitExceeded,
                message: "\(registered.count) categories are registered, the most allowed; remove unused ones with "
                    + "RemoveCategory")
        }
        do {
            try await center.register(category)
        } catch let error as NotificationValidationError {
            throw error.bridgeFailure
        }
        try record(.registerCategory(id: id, category))
        logger.debug("category registered", metadata: ["category.id": "\(id)"])
        return []
    }

    func removeCategory(id: String) async throws -> [DBusValue] {
        try checkRunning()
        guard await center.notificationCategories().contains(where: { $0.id == id }) else {
            throw DBusFailure(
                name: BridgeError.unknownCategory,
                message: "category \(quotedForMessage(id)) is not registered; ListCategories shows the registered ones")
        }
        await center.removeCategory(id: id)
        try record(.removeCategory(id: id))
        return []
    }

    func listCategories() async throws -> [DBusValue] {
        try checkRunning()
        return [.array(element: "a{sv}", await center.notificationCategories().map(CategoryCoding.encode))]
    }

    // MARK: Posting

    func post(_ notification: DBusValue, sender: String) async throws -> [DBusValue] {
        try checkRunning()
        let request = try PostRequest(notification, defaultAppName: defaultAppName)
        let content = request.content
        var category: NotificationCategory?
        if let categoryID = content.categoryID {
            category = await center.notificationCategories().first { $0.id == categoryID }
        }
        let route = request.route ?? .poster(sender)
        if case .application(_, nil) = route, let category { try Self.checkActionNames(of: category) }
        if let replaces = request.replaces { try checkReplacement(of: replaces, appName: content.appName) }
        let id = request.replaces ?? NotificationID.make()
        if let trigger = request.trigger {
            try await schedule(content, trigger: trigger, id: id, route: route, poster: sender, hints: request.hints)
            return [.string(id)]
        }
        if scheduled[id] != nil { try await unschedule([id], why: "was replaced") }
        try await show(content, id: id, route: route, poster: sender, category: category, hints: request.hints)
        return [.string(id)]
    }

    /// Shows a notification now: a `Post` without a trigger, or a scheduled one that fired.
    func show(
        _ content: NotificationContent, id: String, route: ResponseRoute, poster sender: String,
        category: NotificationCategory?, hints: [String: DBusValue] = [:]
    ) async throws(DBusFailure) {
        let record = Posted(
            appName: content.appName ?? defaultAppName, poster: sender, route: route,
            reportsDismissal: category?.reportsDismissal ?? false)
        let previous = posted[id]
        // Known before the server is asked, so that a closure or response arriving meanwhile finds it.
        posted[id] = record
        do {
            try await center.post(
                content, id: id, hints: hints,
                handler: responseHandler(content: content, category: category, route: route, appName: record.appName))
        } catch {
            posted[id] = previous
            if !(error is NotificationValidationError), await !center.isServerAvailable {
                throw DBusFailure(
                    name: BridgeError.noServer,
                    message: "no notification server runs on the session bus, so nothing can be shown now; start "
                        + "one (the desktop's own, dunst, xfce4-notifyd, …) and post again. Scheduled notifications "
                        + "are kept and shown once a server is there")
            }
            throw Self.postFailure(error)
        }
        posted[id] = record
        ended[id] = nil
        await keepDelivered(id, content: content, record: record)
        logger.debug("posted", metadata: [
            "notification.id": "\(id)", "notification.app": "\(record.appName)", "dbus.sender": "\(sender)",
            "notification.route": "\(route.kind)",
        ])
    }

    /// With `app-action` true, action ids name the app's actions, so they must be valid action names.
    private static func checkActionNames(of category: NotificationCategory) throws(DBusFailure) {
        guard let bad = category.actions.first(where: { !PostRequest.isActionName($0.id) }) else { return }
        throw BridgeError.invalid(
            "notification key 'app-action' is true, so action ids name the app's actions, but category "
                + "\(quotedForMessage(category.id)) has action \(quotedForMessage(bad.id)), which cannot "
                + "(use letters, digits, '-' and '.'); give 'app-action' one action name instead")
    }

    /// A replacement must name a notification that is showing, and be posted under the same app name.
    private func checkReplacement(of id: String, appName: String?) throws(DBusFailure) {
        guard let previous = posted[id] ?? scheduled[id] else {
            throw DBusFailure(
                name: BridgeError.unknownNotification,
                message: ended[id] != nil
                    ? "notification \(quotedForMessage(id)) is no longer showing; post without 'replaces' to show a "
                        + "new one"
                    : "no notification has id \(quotedForMessage(id)); use an id Post returned")
        }
        guard previous.appName == appName else {
            throw BridgeError.invalid(
                "notification \(quotedForMessage(id)) belongs to app \(quotedForMessage(previous.appName)); post its "
                    + "replacement with 'app-name': <\(quotedForMessage(previous.appName, limit: 1024))>")
        }
    }

    private static func postFailure(_ error: any Error) -> DBusFailure {
        switch error {
        case let error as NotificationValidationError:
            return error.bridgeFailure
        case let failure as DBusFailure:
            return DBusFailure(
                name: BridgeError.serverError,
                message: "the notification server did not take the notification (\(failure.name): "
                    + "\(failure.message))")
        default:
            return DBusFailure(name: BridgeError.serverError, message: "cannot post the notification: \(error)")
        }
    }

    // MARK: Withdrawing and listing

    func withdraw(id: String) async throws(DBusFailure) -> [DBusValue] {
        try checkRunning()
        try NotificationID.check(id)
        let wasScheduled = scheduled[id] != nil
        if wasScheduled { try await unschedule([id], why: "was withdrawn") }
        guard posted[id] != nil else {
            // Already gone is what was asked for.
            if wasScheduled || ended[id] != nil { return [] }
            throw DBusFailure(
                name: BridgeError.unknownNotification,
                message: "no notification has id \(quotedForMessage(id)); use an id Post returned")
        }
        await withdrawShowing(id)
        return []
    }

    /// Closes a showing notification: its waiting calls fail, its poster gets `Closed` (reason 3) now.
    private func withdrawShowing(_ id: String) async {
        guard let record = posted.removeValue(forKey: id) else { return }
        let why = "was withdrawn"
        ended[id] = why
        forgetDelivered(id)
        failWaits(id, message: "notification '\(id)' \(why) before the user responded")
        emitClosed(id: id, reason: 3, to: record.poster)
        await center.withdraw(id: id)
        logger.debug("withdrawn", metadata: ["notification.id": "\(id)"])
    }

    func withdrawAll(_ filterValue: DBusValue, caller: String) async throws -> [DBusValue] {
        try checkRunning()
        let ids = try await selected(filterValue, caller: caller).map(\.id)
        let pendingIDs = try await selectedPending(filterValue, caller: caller).map(\.notification.id)
        try await unschedule(pendingIDs, why: "was withdrawn")
        for id in ids { await withdrawShowing(id) }
        return [.strings(ids + pendingIDs.filter { !ids.contains($0) })]
    }

    func listDelivered(_ filterValue: DBusValue, caller: String) async throws -> [DBusValue] {
        try checkRunning()
        let notifications = try await selected(filterValue, caller: caller).map { id, content, route in
            NotificationCoding.encode(id: id, content: content, route: route)
        }
        return [.array(element: "a{sv}", notifications)]
    }

    func listPending(_ filterValue: DBusValue, caller: String) async throws -> [DBusValue] {
        try checkRunning()
        let notifications = try await selectedPending(filterValue, caller: caller).map { pending in
            let post = pending.notification.payload
            let route: ResponseRoute? = if case .poster = post.route { nil } else { post.route }
            return NotificationCoding.encode(
                id: pending.notification.id, content: post.content, route: route, nextFireDate: pending.nextFireDate,
                trigger: pending.notification.trigger)
        }
        return [.array(element: "a{sv}", notifications)]
    }

    /// The scheduled notifications the filter selects for `caller`, earliest first.
    private func selectedPending(_ filterValue: DBusValue, caller: String) async throws(DBusFailure)
        -> [PendingNotification<ScheduledPost>]
    {
        let filter = try NotificationFilter(filterValue)
        return await scheduler.pending().filter { pending in
            let notification = pending.notification
            return scheduled[notification.id] != nil
                && filter.selects(
                    appName: notification.appName ?? defaultAppName, poster: notification.payload.poster,
                    content: notification.payload.content, caller: caller)
        }
    }

    /// The showing notifications the filter selects for `caller`, by id.
    private func selected(_ filterValue: DBusValue, caller: String) async throws
        -> [(id: String, content: NotificationContent, route: ResponseRoute?)]
    {
        let filter = try NotificationFilter(filterValue)
        let delivered = await center.deliveredNotifications()
        return delivered.compactMap { notification in
            guard let record = posted[notification.id],
                filter.selects(
                    appName: record.appName, poster: record.poster, content: notification.content, caller: caller)
            else { return nil }
            if case .poster = record.route { return (notification.id, notification.content, nil) }
            return (notification.id, notification.content, record.route)
        }
    }

    // MARK: Server information

    func serverInformation() async throws -> [DBusValue] {
        try checkRunning()
        let info = await center.serverInformation()
        var renderings: [String: DBusValue] = [:]
        for fallback in NotificationAction.TextInputFallback.allCases {
            let action = NotificationAction(
                id: "probe", title: "probe", behavior: .textInput(), textInputFallback: fallback)
            renderings[fallback.rawValue] = .string(await center.textInputRendering(for: action).rawValue)
        }
        let rendering = await center.rendering
        return [
            .vardict([
                "server-name": .string(info.name), "server-vendor": .string(info.vendor),
                "server-version": .string(info.version), "server-spec-version": .string(info.specVersion),
                "server-capabilities": .strings(info.capabilities.sorted()),
                "text-input": .dictionary(
                    key: "s", value: "s",
                    renderings.sorted { $0.key < $1.key }.map {
                        DBusDictionaryEntry(key: .string($0.key), value: $0.value)
                    }),
                "prompt-program": .string(center.promptProgram ?? ""),
                "destructive-order": .string(rendering.destructiveOrder.rawValue),
                "destructive-marker": .string(rendering.destructiveMarker),
                "lock-source": .string(center.lockSource.rawValue),
                "bridge-version": .string(BridgeAPI.version),
            ])
        ]
    }
}
