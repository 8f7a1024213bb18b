import DBusCore
import FoundationEssentials
import Logging
import NotificationBridge
import NotificationBridgeAPI
import NotificationModel
import NotificationScheduling
import NotificationStore
import Synchronization

/// The daemon's state and the work behind each method of `io.github.NotificationBridge1`.
///
/// Every notification the daemon knows of is one entry of ``table``, a ``TrackedNotification`` whose phase says where
/// it is in its life: this actor is the one owner of that state, and of the policies beside it, each a plain value
/// (the registered categories, the thread book, the history ledger, the do-not-disturb state, the focus modes). One
/// ``NotificationServerSession`` talks to the notification server and reports what happens there as one ordered
/// stream of events (``handle(_:)``). Every way to the server is one delivery path (``deliver(_:turns:admitted:)``).
///
/// Nothing here waits on the notification server or the disk while a call is being handled: DBusCore hands calls
/// over one at a time, so a handler that waited would hold up every client. A method changes the state at once, in
/// the order the calls came, and what must wait (a `Notify`, a `CloseNotification`, an `fdatasync`) runs as a job of
/// the daemon's task group (``jobs``), which answers the call when it is done.
actor DaemonCore {
    static let maximumWaits = 4096

    /// What the core works with and never changes: the bus, the session, the services it asks
    /// (``DaemonCollaborators``; each is read through a property of its own name, see
    /// `DaemonCore+Collaborators.swift`).
    nonisolated let collaborators: DaemonCollaborators
    /// Every notification, by id.
    var table = NotificationTable()
    /// Which delivered notifications form threads (see `DaemonCore+Threads.swift`).
    var threads = ThreadBook()
    /// The registered categories, with who registered them and the limits a new one must stay within.
    var categories = CategoryRegistry()
    /// The running apps that called `Attach`.
    var attachments = Attachments()
    var stopping = false
    /// The settings last announced with `SettingsChanged`, by app (`""`: the global ones).
    var announcedSettings: [String: WireEntries] = [:]
    /// The notification server instance last identified (``currentServer()``).
    var knownServer: ServerInstance?
    /// The servers that became ready, in the session's order: whether a firing that found none waits for the next.
    var serverArrivals = ServerArrivals()
    /// How much of the history is kept, by which clock, and what was answered with `Act` in this run.
    var history = HistoryLedger()
    /// The desktop's do-not-disturb as last read, and the order of the notifications held back.
    var doNotDisturb = DoNotDisturbState()
    /// The focus modes, and the one on, which the do-not-disturb gate consults (see `Focus/DaemonCore+Focus.swift`).
    var focus = DaemonFocus()
    /// What each app posted lately, which flood control counts (see `Focus/DaemonCore+FloodControl.swift`).
    var flood = FloodControl()
    /// The notifications that stand for floods, with the posts folded into each.
    var floodFolds = FloodFolds()
    /// The desktop's do-not-disturb as the `DesktopDoNotDisturb` property reads it, on the connection's thread.
    nonisolated let reportedDoNotDisturb = ReportedValue(DesktopDoNotDisturb.unknown)
    /// The mode on as the `ActiveFocus` property reads it, on the connection's thread.
    nonisolated let reportedFocus = ReportedValue(ActiveFocusState.none)
    /// Holds calls back until ``restore()`` has brought back the last run's state.
    private nonisolated let restoreBarrier = RestoreBarrier()

    init(
        connection: DBusConnection, session: NotificationServerSession, lockMonitor: SessionLockMonitor,
        settings: CachedSettings,
        activations: ApplicationActivations, defaultAppName: String, commits: DurableCommits,
        scheduler: Scheduler<PendingPost>,
        jobs: AsyncStream<@Sendable () async -> Void>.Continuation, doNotDisturb: any DesktopDoNotDisturbWatching,
        logger: Logger
    ) {
        let (heldPollRequests, heldPolls) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let (focusTimerWakes, focusTimerWake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        collaborators = DaemonCollaborators(
            connection: connection, session: session, lockMonitor: lockMonitor,
            lockGate: LockGate(monitor: lockMonitor), badges: BadgeEmitter(connection: connection),
            settings: settings, activations: activations, logger: logger, defaultAppName: defaultAppName,
            peers: PeerDirectory(connection: connection, logger: logger), commits: commits, scheduler: scheduler,
            jobs: jobs, doNotDisturbWatcher: doNotDisturb, heldPolls: heldPolls, heldPollRequests: heldPollRequests,
            focusTimerWake: focusTimerWake, focusTimerWakes: focusTimerWakes)
        table.logger = logger
    }

    /// Returns once ``restore()`` has brought back the last run's state. The daemon owns its name before it restores
    /// (only the owner may fire what was scheduled), so a call that comes in between, such as the one that started
    /// it by D-Bus activation, waits here instead of seeing an empty schedule.
    nonisolated func restored() async {
        await restoreBarrier.wait()
    }

    /// Lets the calls waiting in ``restored()`` go on.
    func finishRestoring() {
        restoreBarrier.open()
    }

    /// Sets how much of the history is kept, and the clock it is measured by (`nil`: the system's); before
    /// ``restore()``, which drops what the bounds no longer keep.
    func setHistory(bounds: HistoryBounds, clock: (@Sendable () -> Date)?) {
        history.bounds = bounds
        if let clock { history.clock = clock }
    }

    func checkRunning() throws(DBusFailure) {
        guard !stopping else {
            throw DBusFailure(
                name: BridgeError.shuttingDown,
                message: "notification-bridged is stopping; call again in a moment (D-Bus activation starts it anew)")
        }
    }

    /// Answers `call` once `commit` is on disk, with `values`, or with an error saying what to fix.
    func reply(_ call: DBusMethodCall, after commit: DurableCommits.Commit, with values: [DBusValue] = []) {
        let failure = storeFailure
        jobs.yield {
            do {
                try await commit.wait()
                call.reply(values)
            } catch {
                call.fail(failure(error))
            }
        }
    }

    /// The error of a change that could not be saved.
    nonisolated var storeFailure: @Sendable (any Error) -> DBusFailure {
        let directory = commits.directory
        return { error in
            // DurableCommits logs the first failure of a run of them; the caller learns of each.
            DBusFailure(
                name: BridgeError.serverError,
                message: "cannot save the change in \(directory) (\(error)); free some space or fix the folder's "
                    + "permissions, then call again")
        }
    }

    // MARK: Categories

    func registerCategory(
        id givenID: String, actions: [DBusValue], options: DBusValue, call: DBusMethodCall
    ) async throws(DBusFailure) {
        try checkRunning()
        let peer = await peer(of: call.sender)
        let id = try CategoryNamespace.registeredID(givenID, for: peer)
        let category = try CategoryCoding.decode(id: id, actions: .array(element: "a{sv}", actions), options: options)
        try categories.checkLimits(adding: id, by: peer, sender: call.sender)
        do {
            try categories.register(category, by: call.sender)
        } catch {
            throw error.bridgeFailure
        }
        reply(call, after: commits.submit([.registerCategory(id: id, category)]))
        logger.debug("category registered", metadata: ["category.id": "\(id)"])
    }

    func removeCategory(id givenID: String, call: DBusMethodCall) async throws(DBusFailure) {
        try checkRunning()
        let peer = await peer(of: call.sender)
        let id = try CategoryNamespace.registeredID(givenID, for: peer)
        guard categories[id] != nil else {
            throw DBusFailure(
                name: BridgeError.unknownCategory,
                message: "category \(quotedForMessage(givenID)) is not registered; "
                    + "ListCategories shows the registered ones")
        }
        // A scheduled notification shows its category's actions when it fires: removing the category under it would
        // leave it nothing to show, so it is refused while any waits to be shown.
        let users = table.live.filter { $0.value.content.categoryID == id && $0.value.awaitsShowing }
            .map(\.key).sorted()
        if !users.isEmpty {
            throw BridgeError.invalid(
                "category \(quotedForMessage(id)) is used by \(users.count) scheduled notification(s) ("
                    + users.prefix(10).map { quotedForMessage($0) }.joined(separator: ", ")
                    + (users.count > 10 ? ", …" : "") + "); withdraw them first with Withdraw, then remove it")
        }
        categories.remove(id)
        reply(call, after: commits.submit([.removeCategory(id: id)]))
    }

    func listCategories(caller: String) async throws(DBusFailure) -> [DBusValue] {
        try checkRunning()
        let peer = await peer(of: caller)
        let categories = CategoryNamespace.visible(categories.all, to: peer)
        return [.array(element: "a{sv}", categories.map(CategoryCoding.encode))]
    }

    // MARK: Posting

    /// `Post`: checks the notification and takes it at once; the call is answered when the server has it (or, for a
    /// scheduled one, when it is on disk).
    func post(_ notification: DBusValue, call: DBusMethodCall) async throws(DBusFailure) {
        try checkRunning()
        let sender = call.sender
        let peer = await peer(of: sender)
        var request = try PostRequest(notification, defaultAppName: defaultAppName)
        try confine(&request, givenAppName: request.givenAppName, to: peer)
        request.content = await permittingLevel(of: request.content, postedBy: peer)
        let content = request.content
        let category = await category(of: content)
        let route = request.route ?? .poster(sender)
        let id = try target(of: request, route: route, category: category, by: peer)
        if let trigger = request.trigger {
            return try await schedule(request, trigger: trigger, id: id, route: route, call: call)
        }
        try checkShowingLimit(appName: content.appName ?? defaultAppName, id: id)
        let delivery = Delivery(.post, id: id, content: content, category: category, hints: request.hints)
        let outcome: DeliveryOutcome
        do {
            outcome = try await deliver(delivery) {
                await admitPost(call, id: id, content: content, route: route, category: category)
            }
        } catch {
            switch error {
            case .refused(let failure): throw failure
            case .heldBack: return await holdPost(call, id: id, request: request, route: route, category: category)
            }
        }
        guard case .behindNewest(let commit) = outcome else { return }
        guard let commit else { return call.reply([.string(id)]) }
        reply(call, after: commit, with: [.string(id)])
    }

    /// The id a `Post` of `request` takes, once what it names may be taken: a notification it replaces must be
    /// showing or scheduled and of the same app; a fixed id of another app is refused to a sandboxed app; with
    /// `app-action` true, the category's action ids must be action names.
    private func target(
        of request: PostRequest, route: ResponseRoute, category: NotificationCategory?, by peer: Peer
    ) throws(DBusFailure) -> String {
        let content = request.content
        if case .application(_, nil) = route, let category { try Self.checkActionNames(of: category) }
        if let replaces = request.replaces {
            try checkReplacement(of: replaces, appName: content.appName, by: peer)
        }
        // A fixed id replaces the notification that has it while that one shows or waits, and is new otherwise; a
        // sandboxed app may not take one of another app's ids, even one that ended.
        if let fixedID = request.fixedID, let previous = table[fixedID] {
            if previous.isDelivered || previous.isScheduled || previous.isHeld {
                try checkReplacement(of: fixedID, appName: content.appName, by: peer)
            } else {
                try checkAccess(to: fixedID, previous, by: peer, "reuse the id of")
            }
        }
        return request.replaces ?? request.fixedID ?? NotificationID.make()
    }

    /// A `Post` with a trigger: scheduled now, answered once it is on disk. One that cannot be saved is not
    /// acknowledged, and does not fire either.
    private func schedule(
        _ request: PostRequest, trigger: NotificationTrigger, id: String, route: ResponseRoute, call: DBusMethodCall
    ) async throws(DBusFailure) {
        let commit = try await schedule(
            request.content, trigger: trigger, id: id, route: route, poster: call.sender, hints: request.hints,
            ifDoNotDisturb: request.ifDoNotDisturb)
        let failure = storeFailure
        jobs.yield { [weak self] in
            do {
                try await commit.wait()
                call.reply([.string(id)])
            } catch {
                call.fail(failure(error))
                _ = await self?.unschedule(id, why: "could not be saved")
            }
        }
    }

    /// A `Post` that passed the gate takes the place of what had its id: a scheduled or held one leaves the store, one
    /// on the server goes into the history as replaced. The call is answered once the server has it and what must
    /// survive a restart is on disk.
    private func admitPost(
        _ call: DBusMethodCall, id: String, content: NotificationContent, route: ResponseRoute,
        category: NotificationCategory?
    ) async -> DeliveryAdmission {
        var changes: [DaemonStore.Change] = []
        if table[id]?.isScheduled == true { changes += await unschedule(id) }
        // Held back until now: its post leaves the store, this one shows in its place.
        if table[id]?.isHeld == true { changes.append(.unschedule(id: id)) }
        let previous = table[id]
        if let previous, previous.isOnServer { recordHistory(id, previous, .replaced) }
        var entry = TrackedNotification(
            .posted, appName: content.appName ?? defaultAppName, poster: call.sender, route: route, content: content,
            reportsDismissal: category?.reportsDismissal ?? false)
        // What waits for the id goes on waiting for its replacement.
        entry.waits = previous?.waits ?? []
        table[id] = entry
        let commit = changes.isEmpty ? nil : commits.submit(changes)
        return DeliveryAdmission(replaced: previous) { [weak self] result, _ in
            // Shown, with nothing to wait for but the commit of its route (a new notification, as most are): answered
            // once that is on disk, without another turn on the actor, which only a failure needs.
            if commit == nil, case .success(let saved) = result {
                do {
                    try await saved?.wait()
                    return call.reply([.string(id)])
                } catch {}
            }
            await self?.answerPost(call, id: id, result: result, after: commit)
        }
    }

    /// Answers a `Post` once its `Notify` is answered and what must survive a restart is on disk. A notification whose
    /// route could not be saved is taken off the screen again and the call fails: nothing is acknowledged that a
    /// restart would lose.
    private func answerPost(
        _ call: DBusMethodCall, id: String, result: Result<DurableCommits.Commit?, DBusFailure>,
        after commit: DurableCommits.Commit?
    ) async {
        let saved: DurableCommits.Commit?
        switch result {
        case .success(let commit): saved = commit
        case .failure(let failure): return call.fail(failure)
        }
        do {
            try await commit?.wait()
            try await saved?.wait()
            call.reply([.string(id)])
        } catch {
            let failure = storeFailure(error)
            if table[id]?.isOnServer == true {
                end(id, why: "could not be saved")
                takeOffServer(id)
            }
            call.fail(
                name: BridgeError.serverError,
                message: "the notification was not shown, since where its responses go could not be saved: "
                    + failure.message)
        }
    }

    /// The registered category `content` names, if any.
    func category(of content: NotificationContent) async -> NotificationCategory? {
        guard let categoryID = content.categoryID else { return nil }
        return categories[categoryID]
    }

    /// The server answered a `Notify` (or the call failed): the entry moves on from `.posting`. Says too whether the
    /// entry was still waiting for this answer (not withdrawn or replaced meanwhile). A failed one that was to take
    /// the place of `inPlaceOf` on the server leaves that one showing there (``stayOnServer(_:)``).
    func notifyAnswered(
        _ id: String, result: Result<(serverID: UInt32, server: String?), any Error>, previous: TrackedNotification?,
        inPlaceOf displaced: String? = nil
    ) async -> (Result<DurableCommits.Commit?, DBusFailure>, wasOut: Bool) {
        guard case .success(let placed) = result else {
            let failure = await postFailure(result)
            // Read after the await above, in the same turn as the transition: a withdrawal meanwhile counts.
            let wasOut = isPosting(id)
            apply(
                .notShown(message: failure.message, replacedOneOnServer: previous?.isOnServer == true), to: id,
                replaced: previous)
            if let displaced { await stayOnServer(displaced) }
            return (.failure(failure), wasOut)
        }
        let wasOut = isPosting(id)
        guard let entry = table[id], apply(.shown, to: id).contains(.keepDelivered) else {
            return (.success(nil), wasOut)
        }
        logger.debug(
            "posted",
            metadata: [
                "notification.id": "\(id)", "notification.app": "\(entry.appName)", "dbus.sender": "\(entry.poster)",
                "notification.route": "\(entry.route.kind)",
            ])
        // Acknowledged once its route is on disk, whatever the route: after a crash, a response to a poster that has
        // gone reaches the app attached under its name. The posts that come together share the sync.
        return (.success(await keepDelivered(id, entry, serverID: placed.serverID, server: placed.server)), wasOut)
    }

    /// Whether notification `id` waits for the answer to its `Notify`.
    private func isPosting(_ id: String) -> Bool {
        if case .posting? = table[id]?.phase { return true }
        return false
    }

    private func postFailure(_ result: Result<(serverID: UInt32, server: String?), any Error>) async -> DBusFailure {
        guard case .failure(let error) = result else { return DBusFailure(name: "", message: "") }
        switch error {
        case let error as NotificationValidationError:
            return error.bridgeFailure
        case let failure as DBusFailure
        where failure.name == DBusFailure.Name.noReply || failure.name == DBusFailure.Name.timeout:
            return DBusFailure(
                name: BridgeError.serverTimeout,
                message: "the notification server did not answer in time (\(failure.message)); it may be hung: "
                    + "restart it, or post again later")
        default:
            // The bus's own word that nobody owns the name counts even when the session believes a server is there:
            // it hears of a server leaving a moment later than the bus does.
            let nobodyOwnsTheName =
                (error as? DBusFailure).map {
                    $0.name == DBusFailure.Name.serviceUnknown || $0.name == DBusFailure.Name.nameHasNoOwner
                } ?? false
            let serverAvailable = await session.isServerAvailable
            if nobodyOwnsTheName || !serverAvailable {
                return DBusFailure(
                    name: BridgeError.noServer,
                    message: "no notification server runs on the session bus, so nothing can be shown now; start "
                        + "one (the desktop's own, dunst, xfce4-notifyd, …) and post again. Scheduled notifications "
                        + "are kept and shown once a server is there")
            }
            if let failure = error as? DBusFailure {
                return DBusFailure(
                    name: BridgeError.serverError,
                    message: "the notification server did not take the notification (\(failure.name): "
                        + "\(failure.message))")
            }
            return DBusFailure(name: BridgeError.serverError, message: "cannot post the notification: \(error)")
        }
    }

    /// With `app-action` true, action ids name the app's actions, so they must be valid action names.
    private static func checkActionNames(of category: NotificationCategory) throws(DBusFailure) {
        guard let bad = category.actions.first(where: { !PostRequest.isActionName($0.id) }) else { return }
        throw KeyPlace(place: "notification", key: PostKeys.appAction.name).invalid(
            "is true, so action ids name the app's actions, but category \(quotedForMessage(category.id)) has action "
                + "\(quotedForMessage(bad.id)), which cannot (use letters, digits, '-' and '.'); give 'app-action' one "
                + "action name instead")
    }

    /// A replacement must name a notification that is showing or scheduled, and be posted under the same app name.
    private func checkReplacement(of id: String, appName: String?, by peer: Peer) throws(DBusFailure) {
        if let previous = table[id] { try checkAccess(to: id, previous, by: peer, "replace") }
        guard let previous = table[id], previous.isDelivered || previous.isScheduled || previous.isHeld else {
            throw DBusFailure(
                name: BridgeError.unknownNotification,
                message: table[id] != nil
                    ? "notification \(quotedForMessage(id)) is no longer showing; post without 'replaces' to show a "
                        + "new one"
                    : "no notification has id \(quotedForMessage(id)); use an id returned when it was posted")
        }
        guard previous.appName == appName else {
            throw BridgeError.invalid(
                "notification \(quotedForMessage(id)) belongs to app \(quotedForMessage(previous.appName)); post its "
                    + "replacement with 'app-name': <\(quotedForMessage(previous.appName, limit: 1024))>")
        }
    }

    // MARK: Ending

    /// Ends a notification: its waiting calls fail with `Error.Closed`, and its poster gets `Closed` with `reason`
    /// when one is given.
    func end(_ id: String, why: String, reason: UInt32? = nil, waitsMessage: String? = nil) {
        guard let entry = table[id] else { return }
        let message = waitsMessage ?? "notification '\(id)' \(why) without a response"
        for call in entry.waits { call.fail(name: BridgeError.closed, message: message) }
        table.update(id) { entry in
            _ = entry.handle(.ended(why), id: id)
            entry.waits = []
        }
        // Whatever ended it, it is no longer in its thread (the thread's own endings took it out already).
        threads.leave(id)
        if let reason { emitClosed(id: id, reason: reason, to: entry.poster) }
    }

    func emitClosed(id: String, reason: UInt32, to poster: String) {
        try? connection.emit(.closed(id: id, reason: BridgeCloseReason(rawValue: reason)), to: poster)
    }

    // MARK: Server information

    /// What `GetServerInformation` answers `caller`: the server, the bridge's choices, and who the caller is taken for.
    func serverInformation(caller: String) async throws(DBusFailure) -> [DBusValue] {
        try checkRunning()
        let info = await session.serverInformation()
        var renderings: [String: String] = [:]
        for fallback in NotificationAction.TextInputFallback.allCases {
            let action = NotificationAction(
                id: "probe", title: "probe", behavior: .textInput(), textInputFallback: fallback)
            renderings[fallback.rawValue] = await session.textInputRendering(for: action).rawValue
        }
        let rendering = session.rendering
        var entries = WireEntries()
        entries[ServerInformationKeys.serverName] = info.name
        entries[ServerInformationKeys.serverVendor] = info.vendor
        entries[ServerInformationKeys.serverVersion] = info.version
        entries[ServerInformationKeys.serverSpecVersion] = info.specVersion
        entries[ServerInformationKeys.serverCapabilities] = info.capabilities.sorted()
        entries[ServerInformationKeys.textInput] = renderings
        entries[ServerInformationKeys.promptProgram] = session.promptProgram ?? ""
        entries[ServerInformationKeys.promptAvailable] = session.isPromptAvailable
        entries[ServerInformationKeys.serverQuirks] = info.quirkNotes
        entries[ServerInformationKeys.destructiveOrder] = rendering.destructiveOrder.rawValue
        entries[ServerInformationKeys.destructiveMarker] = rendering.destructiveMarker(on: info)
        entries[ServerInformationKeys.lockSource] = lockMonitor.source.rawValue
        entries[ServerInformationKeys.bridgeVersion] = BridgeAPI.version
        let peer = await peer(of: caller)
        if case .unidentified(_, let why) = peer {
            entries[ServerInformationKeys.caller] = "\(peer.description) (\(why))"
            entries[ServerInformationKeys.callerIdentified] = false
        } else {
            entries[ServerInformationKeys.caller] = peer.description
            entries[ServerInformationKeys.callerIdentified] = true
        }
        return [entries.value]
    }
}
