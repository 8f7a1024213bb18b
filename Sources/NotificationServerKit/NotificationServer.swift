import DBusCore
import FreedesktopNotifications

/// A real `org.freedesktop.Notifications` server on a bus you give it, behaving as a ``NotificationServerProfile``
/// says: it keeps the live notifications, assigns ids, replaces, expires them on real timers, closes them, and emits
/// the signals the chosen server would emit, to the sender or to everyone.
///
/// ```swift
/// let server = NotificationServer()
/// let events = server.events()
/// try await server.serving(on: connection, profile: .gnomeShell) {
///     // … a client posts a notification …
///     if case .notified(let notification)? = await events.first(where: { _ in true }) {
///         try await server.invokeAction(id: notification.id, key: "default")
///     }
/// }
/// ```
///
/// The server's life is structured: ``start(on:profile:replacingOwner:allowingReplacement:)`` puts it on the bus, and
/// its work (the expiry of notifications, the departures of senders) runs in ``run()``, in a task group of the
/// caller's, until that task is cancelled or the server's connection closes, as the process of a real server exits;
/// then it leaves the bus. ``serving(on:profile:replacingOwner:allowingReplacement:_:)`` does both around a body.
///
/// Method calls are answered in the order they arrive. The user actions (``invokeAction(id:key:activationToken:)``,
/// ``reply(id:text:)``, ``dismiss(id:)``, ``expire(id:)``) are what a person would do on the desktop; a test or a UI
/// performs them. Keep a reference to the server while it runs: the exported object holds it weakly.
public actor NotificationServer {
    /// The bus name the server owns.
    public static let busName = FreedesktopNames.busName
    /// The object path it serves.
    public static let objectPath: DBusObjectPath = FreedesktopNames.path
    /// The interface it serves and emits its signals on.
    public static let interfaceName = FreedesktopNames.interface
    /// The error name of a refused `CloseNotification` (notification-daemon's).
    public static let invalidIDErrorName = "org.freedesktop.Notifications.InvalidId"
    /// The error name of a refused repeat (Plasma's).
    public static let excessNotificationGenerationErrorName =
        "org.freedesktop.Notifications.Error.ExcessNotificationGeneration"

    /// The profile of the running server (or of the last run; ``NotificationServerProfile/fullFeatured`` before the
    /// first start).
    public private(set) var profile: NotificationServerProfile = .fullFeatured
    /// The live notifications, oldest first.
    public var notifications: [ServedNotification] { live.all }
    /// Every method call received since the server was made, oldest first, including refused ones.
    public private(set) var calls: [RecordedCall] = []

    /// The connection the server serves on, or `nil` off the bus.
    var connection: DBusConnection?
    /// The live notifications, found by id.
    var live = LiveNotifications()
    private var nextID: UInt32 = 1
    private var nextTokenNumber = 1
    /// When each live notification that has a timeout expires: the one timer queue that ``run()`` follows.
    private var expiries = ExpiryQueue()
    /// Tells ``run()`` that ``expiries`` changed; it keeps only the newest, as one look at the queue covers them all.
    private nonisolated let expiryChanges: (stream: AsyncStream<Void>, continuation: AsyncStream<Void>.Continuation) =
        AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    private var lastAccepted: (key: [String], at: ContinuousClock.Instant)?
    /// The bus's `NameOwnerChanged` on each connection the server has served on, in order, numbered; ``run()`` follows
    /// them: departures of senders, and the end of the current one, which is the end of its connection.
    private nonisolated let busNews:
        (
            stream: AsyncStream<(epoch: Int, changes: AsyncStream<DBusSignal>)>,
            continuation: AsyncStream<(epoch: Int, changes: AsyncStream<DBusSignal>)>.Continuation
        ) =
            AsyncStream.makeStream()
    /// The number of the connection served on now (see ``busNews``).
    private var epoch = 0
    private let broadcaster = EventBroadcaster()
    private var notifyAnswer = NotifyAnswer.immediately
    /// `Notify` calls held by ``NotifyAnswer/never``.
    private var heldNotifies: [DBusMethodCall] = []
    /// Notifications posted through a service that has since restarted and not replaced through the new one: their
    /// signals reach nobody (``restartService(on:)``).
    var orphaned: Set<UInt32> = []

    /// Makes a server that is not on the bus yet.
    public init() {}

    deinit {
        expiryChanges.continuation.finish()
        busNews.continuation.finish()
    }

    /// Whether the server is on the bus: started, and its ``run()`` not ended.
    public var isRunning: Bool { connection != nil }

    /// The live notification with this id, or `nil`.
    public func notification(id: UInt32) -> ServedNotification? {
        live[id]
    }

    /// The live notifications, in the order they were first shown.
    public var shownNotifications: [ServedNotification] { live.all }

    /// A stream of every event from now on (new, replaced, closed and refused notifications), in order.
    ///
    /// Subscribing is synchronous, so an event caused after this returns is never missed. Each call makes an
    /// independent stream; it buffers without limit and finishes when ``run()`` ends.
    public nonisolated func events() -> AsyncStream<NotificationServerEvent> {
        broadcaster.subscribe()
    }

    // MARK: Running

    /// Puts the server on the bus, runs `body`, then leaves the bus:
    /// ``start(on:profile:replacingOwner:allowingReplacement:)``, with ``run()`` in a task group beside `body`,
    /// cancelled once `body` returns or throws. Returns once the server
    /// has left the bus (earlier, by itself, if its connection closes meanwhile).
    ///
    /// - Throws: what `start` or `body` throws.
    public nonisolated func serving<T: Sendable>(
        on connection: DBusConnection, profile: NotificationServerProfile, replacingOwner: Bool = false,
        allowingReplacement: Bool = false, _ body: () async throws -> T
    ) async throws -> T {
        try await start(
            on: connection, profile: profile, replacingOwner: replacingOwner, allowingReplacement: allowingReplacement)
        return try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await self.run() }
            defer { group.cancelAll() }
            return try await body()
        }
    }

    /// Exports `/org/freedesktop/Notifications` on `connection` and takes the name `org.freedesktop.Notifications`;
    /// run ``run()`` afterwards for as long as the server lives.
    ///
    /// - Parameters:
    ///   - replacingOwner: take the name from its current owner, if that owner allows replacement (as
    ///     `dunst --replace` or a server started with `allowingReplacement` does).
    ///   - allowingReplacement: let a later server that asks to replace this one take the name; this connection
    ///     then receives `NameLost` (see `DBusConnection.nameEvents()`) and should stop.
    /// - Throws: ``NotificationServerError/nameTaken(owner:)`` when another connection owns the name and keeps it
    ///   (the server does not queue for it), ``NotificationServerError/alreadyRunning``, or the ``DBusFailure`` of a
    ///   failed export or bus call. Nothing stays exported after a failure.
    public func start(
        on connection: DBusConnection, profile: NotificationServerProfile, replacingOwner: Bool = false,
        allowingReplacement: Bool = false
    ) async throws {
        try await start(
            on: connection, profile: profile, replacingOwner: replacingOwner, allowingReplacement: allowingReplacement,
            exportDelay: nil)
    }

    /// The start, with the object exported `exportDelay` after the name is taken when that is given (see
    /// ``restartService(on:exportDelay:)``), else before.
    func start(
        on connection: DBusConnection, profile: NotificationServerProfile, replacingOwner: Bool = false,
        allowingReplacement: Bool = false, exportDelay: Duration?
    ) async throws {
        guard self.connection == nil else { throw NotificationServerError.alreadyRunning }
        self.connection = connection
        self.profile = profile
        var exported = false
        var named = false
        do {
            if exportDelay == nil {
                try await connection.export([Self.interface(for: profile, server: self)], at: Self.objectPath)
                exported = true
            }
            // Before the name is taken, so that no departure of a sender is missed.
            let changes = try await connection.signals(matching: Self.nameOwnerChanges)
            var flags: DBusConnection.NameRequestFlags = [.doNotQueue]
            if replacingOwner { flags.insert(.replaceExisting) }
            if allowingReplacement { flags.insert(.allowReplacement) }
            let reply = try await connection.requestName(Self.busName, flags: flags)
            guard reply == .primaryOwner || reply == .alreadyOwner else {
                throw NotificationServerError.nameTaken(owner: try? await connection.nameOwner(of: Self.busName))
            }
            named = true
            if let exportDelay {
                try await Task.sleep(for: exportDelay)
                try await connection.export([Self.interface(for: profile, server: self)], at: Self.objectPath)
                exported = true
            }
            epoch += 1
            busNews.continuation.yield((epoch, changes))
        } catch {
            if named { _ = try? await connection.releaseName(Self.busName) }
            if exported { await connection.unexport(at: Self.objectPath) }
            self.connection = nil
            throw error
        }
    }

    /// The server's work, until the task that runs it is cancelled or the connection it serves on closes (as a server
    /// whose process exits): notifications expire as the profile says, and those of senders that leave the bus go when
    /// the profile drops them. Then the server leaves the bus: it gives the name back, stops serving, drops every
    /// notification without a signal (as a server that exits does) and finishes the event streams.
    ///
    /// Run it once after ``start(on:profile:replacingOwner:allowingReplacement:)``, in a task group of the caller's
    /// (``serving(on:profile:replacingOwner:allowingReplacement:_:)`` does). Without it, notifications never expire.
    public func run() async {
        let (busNews, expiryChanges) = (self.busNews.stream, self.expiryChanges.stream)
        await withDiscardingTaskGroup { group in
            group.addTask { await self.followExpiries(expiryChanges) }
            // Connection after connection: a restarted service (restartService) serves on a new one.
            for await news in busNews {
                for await change in news.changes {
                    if let sender = Self.departedSender(change) { senderVanished(sender) }
                }
                // The stream ends with its connection: the server ends with the current one.
                guard news.epoch != epoch, !Task.isCancelled else { break }
            }
            group.cancelAll()
        }
        await leave()
    }

    /// Gives the name back, stops serving, drops every notification without a signal and finishes the event streams:
    /// the end of ``run()``.
    private func leave() async {
        guard let connection else { return broadcaster.finishAll() }
        self.connection = nil
        expiries = ExpiryQueue()
        live.removeAll()
        lastAccepted = nil
        // Dropped unanswered, each held call is answered with an error (DBusMethodCall's rule).
        heldNotifies = []
        // Sent without waiting for the bus's answer: the task is often cancelled by now, and a call would not wait.
        try? connection.send(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            method: "ReleaseName", arguments: [.string(Self.busName)])
        await connection.unexport(at: Self.objectPath)
        broadcaster.finishAll()
    }

    // MARK: Method calls

    /// Records a call; refuses it when it arrives while the server stops (between giving the name back and
    /// unexporting), so a stopped server gains no state.
    private func record(_ call: DBusMethodCall) throws(DBusFailure) -> RecordedCall {
        guard connection != nil else {
            throw DBusFailure(name: DBusFailure.Name.serviceUnknown, message: "the notification server is stopping")
        }
        let record = RecordedCall(member: call.member, sender: call.sender, arguments: call.arguments)
        calls.append(record)
        return record
    }

    func getCapabilities(_ call: DBusMethodCall) throws(DBusFailure) -> [DBusValue] {
        _ = try record(call)
        return [.strings(profile.capabilities)]
    }

    func getServerInformation(_ call: DBusMethodCall) throws(DBusFailure) -> [DBusValue] {
        _ = try record(call)
        return [profile.serverName, profile.vendor, profile.version, profile.specVersion].map(DBusValue.string)
    }

    /// Makes `Notify` answer late, never, or with an error, from the next call on. Calls held by ``NotifyAnswer/never``
    /// are answered now when the new setting answers at all.
    public func setNotifyAnswer(_ answer: NotifyAnswer) {
        notifyAnswer = answer
        guard answer != .never else { return }
        let held = heldNotifies
        heldNotifies = []
        for call in held { notify(call) }
    }

    /// The summaries of the `Notify` calls held unanswered (``NotifyAnswer/never``), in the order they came: which
    /// notifications a client is waiting for the server to take.
    public var heldSummaries: [String] {
        heldNotifies.map { call in
            guard call.arguments.count > 3, case .string(let summary) = call.arguments[3] else { return "" }
            return summary
        }
    }

    /// Holds up a `Notify` as ``setNotifyAnswer(_:)`` asks; returns whether to answer it now.
    func delayNotify(_ call: DBusMethodCall) async -> Bool {
        switch notifyAnswer {
        case .immediately, .refusing:
            return true
        case .after(let delay):
            try? await Task.sleep(for: delay)
            return true
        case .never:
            heldNotifies.append(call)
            broadcaster.yield(.held(sender: call.sender))
            return false
        }
    }

    /// Answers `Notify`. The reply is queued before any signal about the new notification (an expiry), as a
    /// single-threaded server would send them.
    func notify(_ call: DBusMethodCall) {
        let record: RecordedCall
        do throws(DBusFailure) {
            record = try self.record(call)
        } catch {
            return call.fail(error)
        }
        let event: NotificationServerEvent
        do throws(DBusFailure) {
            if case .refusing(let failure) = notifyAnswer { throw failure }
            let request = try NotifyRequest(arguments: call.arguments)
            let actions = try request.actions(under: profile.oddActionList)
            let urgency = try request.urgency(under: profile.urgencyHint)
            try refuseRepeat(request)
            event = accept(request, actions: actions, urgency: urgency, sender: call.sender)
        } catch {
            call.fail(error)
            broadcaster.yield(.refused(record, error))
            return
        }
        guard let notification = event.notification else { return }
        orphaned.remove(notification.id)
        call.reply([.uint32(notification.id)])
        broadcaster.yield(event)
        scheduleExpiry(of: notification)
    }

    private func refuseRepeat(_ request: NotifyRequest) throws(DBusFailure) {
        guard let window = profile.refusesRepeatsWithin, request.replacesID == 0, let last = lastAccepted,
            last.key == request.repeatKey, ContinuousClock.now - last.at < window
        else { return }
        throw DBusFailure(
            name: Self.excessNotificationGenerationErrorName,
            message: "an identical notification was posted less than \(window) ago; wait or change its text")
    }

    private func accept(
        _ request: NotifyRequest, actions: [ServedNotification.Action], urgency: UInt8, sender: String
    ) -> NotificationServerEvent {
        lastAccepted = (request.repeatKey, ContinuousClock.now)
        var notification = ServedNotification(
            id: 0, appName: request.appName, replacesID: request.replacesID, icon: request.appIcon,
            summary: request.summary, body: request.body, actions: actions, hints: request.hints,
            expireTimeout: request.expireTimeout, sender: sender, urgency: urgency)
        guard request.replacesID > 0, let previous = live[request.replacesID] else {
            // A new notification, also when replaces_id names one that is gone (GNOME Shell and mako do this).
            notification.id = allocateID()
            live.append(notification)
            return .notified(notification)
        }
        if profile.replacementDropsButtons { notification.actions = [] }
        if profile.newIDOnReplace {
            cancelExpiry(of: previous.id)
            notification.id = allocateID()
            live.remove(id: previous.id)
            live.append(notification)
        } else {
            notification.id = previous.id
            live.replace(notification)
        }
        return .replaced(previous: previous, current: notification)
    }

    /// The next unused id: never 0, never one that is live.
    private func allocateID() -> UInt32 {
        while nextID == 0 || live.contains(id: nextID) {
            nextID &+= 1
        }
        defer { nextID &+= 1 }
        return nextID
    }

    func closeNotification(_ call: DBusMethodCall) throws(DBusFailure) -> [DBusValue] {
        _ = try record(call)
        let id = try call.arguments.decode(UInt32.self)
        if live.contains(id: id) {
            end(id: id, reason: .closedByCall)
            return []
        }
        let refuses: Bool
        switch profile.unknownIDOnClose {
        case .ignore: refuses = false
        case .refuseZero: refuses = id == 0
        case .refuse: refuses = true
        }
        guard refuses else { return [] }
        throw DBusFailure(
            name: Self.invalidIDErrorName,
            message: id == 0 ? "0 is not a notification id" : "no notification has id \(id); it may have closed")
    }

    // MARK: Ending and expiry

    /// Removes the live notification `id`, sends `NotificationClosed` unless told not to, and reports it.
    func end(id: UInt32, reason: NotificationCloseReason, sendsSignal: Bool = true) {
        guard let notification = live.remove(id: id) else { return }
        cancelExpiry(of: notification.id)
        defer { orphaned.remove(notification.id) }
        if sendsSignal {
            try? emit(
                .closed(id: notification.id, reason: reason), about: notification, delivery: profile.signalDelivery)
            if profile.repeatsNotificationClosed {
                try? emit(
                    .closed(id: notification.id, reason: .dismissed), about: notification,
                    delivery: profile.signalDelivery)
            }
        }
        broadcaster.yield(.closed(notification, reason: reason))
    }

    /// The live notification `id`.
    ///
    /// - Throws: ``NotificationServerError/notRunning`` or ``NotificationServerError/unknownNotification(id:)``.
    func liveNotification(id: UInt32) throws -> ServedNotification {
        guard connection != nil else { throw NotificationServerError.notRunning }
        guard let notification = live[id] else { throw NotificationServerError.unknownNotification(id: id) }
        return notification
    }

    /// How long `notification` lives, or `nil` for ever.
    func lifetime(of notification: ServedNotification) -> Duration? {
        let requested = profile.honorsExpireTimeout ? notification.expireTimeout : -1
        if requested > 0 { return .milliseconds(requested) }
        if requested == 0 { return nil }
        return profile.defaultTimeout
    }

    private func scheduleExpiry(of notification: ServedNotification) {
        guard let delay = lifetime(of: notification) else { return cancelExpiry(of: notification.id) }
        expiries.set(notification.id, at: .now + delay)
        expiryChanges.continuation.yield()
    }

    private func cancelExpiry(of id: UInt32) {
        // A deadline gone early is no change the loop must hear of: it finds nothing due then.
        expiries.remove(id)
    }

    /// The timer queue's loop: expires what is due, then sleeps until the earliest deadline or a change of the queue.
    /// A change that brings the earliest deadline nearer adds a sleeper for it; a sleeper whose deadline went away
    /// wakes the loop for nothing, once, then ends.
    private func followExpiries(_ changes: AsyncStream<Void>) async {
        let wake = expiryChanges.continuation
        var sleepingUntil: ContinuousClock.Instant?
        await withDiscardingTaskGroup { group in
            for await _ in changes {
                for id in expiries.removeDue(at: .now) {
                    if let notification = live[id] { expire(notification) }
                }
                guard let earliest = expiries.earliest else { continue }
                // A sleeper still to wake at this deadline or before it wakes the loop in time.
                if let sleepingUntil, sleepingUntil <= earliest, sleepingUntil > .now { continue }
                sleepingUntil = earliest
                group.addTask {
                    try? await Task.sleep(until: earliest, clock: .continuous)
                    wake.yield()
                }
            }
            group.cancelAll()
        }
    }

    /// Ends the live `notification` as its timeout passing would, if the profile closes it; returns whether it closed.
    @discardableResult
    func expire(_ notification: ServedNotification) -> Bool {
        cancelExpiry(of: notification.id)
        switch profile.expiry {
        case .closeTransientOnly where !notification.isTransient, .keep:
            return false
        case .close, .closeTransientOnly:
            end(id: notification.id, reason: .expired)
            return true
        }
    }

    // MARK: Signals

    /// Emits a signal about `notification` on the server's interface, to its sender or to everyone.
    ///
    /// - Throws: ``NotificationServerError/notRunning``, or `DBusFailure` (`InvalidArgs`) for an argument D-Bus
    ///   cannot carry (a string with a NUL).
    func emit(_ signal: ServerSignal, about notification: ServedNotification, delivery: SignalDelivery) throws {
        guard let connection else { throw NotificationServerError.notRunning }
        guard !orphaned.contains(notification.id) else { return }
        let destination = delivery == .unicastToSender && !notification.sender.isEmpty ? notification.sender : nil
        try connection.emit(
            path: Self.objectPath, interface: Self.interfaceName, member: signal.member.rawValue,
            arguments: signal.arguments, destination: destination)
    }

    /// A token for `ActivationToken` when the caller gives none: unique within this server.
    func makeActivationToken(for id: UInt32) -> String {
        defer { nextTokenNumber += 1 }
        return "notification-server-kit-\(id)-\(nextTokenNumber)"
    }

    // MARK: Senders that leave

    /// `NameOwnerChanged` from the bus.
    private static let nameOwnerChanges = DBusMatchRule(
        sender: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
        member: "NameOwnerChanged")

    /// The unique name that left the bus in `change`, or `nil`.
    private static func departedSender(_ change: DBusSignal) -> String? {
        guard change.arguments.count == 3, case .string(let name) = change.arguments[0], name.hasPrefix(":"),
            case .string(let newOwner) = change.arguments[2], newOwner.isEmpty
        else { return nil }
        return name
    }

    /// Leaves `connection` without touching the notifications: the service's part of ``restartService(on:)``.
    func detachService() {
        orphaned = live.ids
        connection = nil
    }

    private func senderVanished(_ sender: String) {
        guard profile.dropsNotificationsOfVanishedSenders else { return }
        for notification in live.all where notification.sender == sender {
            end(id: notification.id, reason: .undefined, sendsSignal: false)
        }
    }
}
