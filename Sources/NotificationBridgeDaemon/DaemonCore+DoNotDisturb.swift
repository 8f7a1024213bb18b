import DBusCore
import FoundationEssentials
import NotificationBridge
import NotificationBridgeAPI
import NotificationModel
import NotificationScheduling
import NotificationStore

/// The desktop's do-not-disturb and the focus mode that is on: while either is on, a notification that does not pass
/// it (``FocusGate``, of which the desktop's switch lets through by ``DesktopDoNotDisturb/passes(_:timeSensitiveAllowed:)``) waits, held in the table and kept in the store as a scheduled notification
/// that came due, and is shown once the switch is off, in the order it came; or it is dropped when its post says
/// `if-do-not-disturb` `drop`. Apps read the switch in the `DesktopDoNotDisturb` property.
extension DaemonCore {
    /// How calls that name a dropped notification later say it ended.
    static let droppedWhy = "was dropped while the desktop's do-not-disturb was on"

    /// The desktop's switch changed (or was read for the first time): announced to apps, and when it is off, what
    /// was held back is shown.
    func desktopDoNotDisturbChanged(_ state: DesktopDoNotDisturb) {
        guard doNotDisturb.read(state) else { return }
        let reported = reportedDoNotDisturb.withLock { reported in
            defer { reported = state }
            return reported
        }
        if reported != state {
            logger.info(
                "the desktop's do-not-disturb is \(state.isOn ? "on" : "off")",
                metadata: ["dnd.source": "\(state.source?.rawValue ?? "none")"])
            connection.emitPropertiesChanged(
                path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName,
                changed: [BridgeProperty.desktopDoNotDisturb.name])
            try? connection.emit(.desktopDoNotDisturbChanged(state.reported), to: nil)
        }
        if state.isOn {
            if hasHeld { heldPolls.yield() }
        } else {
            releaseHeld()
        }
    }

    /// Whether any notification is held back.
    var hasHeld: Bool { table.live.contains { $0.value.isHeld } }

    /// Reads the switch again where the desktop announces no change of it (mako).
    func refreshDoNotDisturb() async {
        if let state = await doNotDisturbWatcher.refresh() { desktopDoNotDisturbChanged(state) }
    }

    /// Whether an immediate `Post` of `content` waits. Before the first reading of the switch it does not: a post is
    /// not held back on a guess. A replacement of a notification on the screen goes through: it updates what the user
    /// was shown already.
    func holdsBackPost(_ content: NotificationContent, replacing previous: TrackedNotification?) async -> Bool {
        await readSettings(of: content)
        // The switch is read again only where it could make a difference: not for what passes it anyway.
        guard previous?.isOnServer != true,
            FocusGate(desktopIsOn: true, focus: focus.active).holdsBack(focusCandidate(content))
        else { return false }
        await refreshDoNotDisturb()
        return focusGate(desktopUnread: false).holdsBack(focusCandidate(content))
    }

    /// Whether a scheduled notification that came due with `content` waits: before the first reading of the switch
    /// it does, so that what a restart brings back is not shown in the moment before the switch is known. It does not
    /// wait for the app's settings: its caller reads them first (``readSettings(of:)``).
    func holdsBackFiring(_ content: NotificationContent) -> Bool {
        focusGate(desktopUnread: true).holdsBack(focusCandidate(content))
    }

    /// Whether the user lets the time-sensitive notifications of `content`'s app through do-not-disturb, as the app's
    /// settings were last read (``readSettings(of:)``); not when they were not read. The same permission opens the
    /// bridge's do-not-disturb and the desktop's (``NotificationInterruptionLevel/passes(_:timeSensitiveAllowed:)``).
    func timeSensitiveAllowed(_ content: NotificationContent) -> Bool {
        settings.cachedRecord(for: settingsApp(of: content))?.effective.allowsTimeSensitive ?? false
    }

    /// Reads the settings of `content`'s app, so that a check that cannot wait (``holdsBackFiring(_:)``) knows them.
    func readSettings(of content: NotificationContent) async {
        let app = settingsApp(of: content)
        // Kept already (read by the settings stage of the same delivery, as a post's are): no turn off the actor.
        guard settings.cachedRecord(for: app) == nil else { return }
        _ = await settings.record(for: app)
    }

    /// Takes the place of the next notification held back.
    func takeHeldOrder() -> UInt64 {
        doNotDisturb.takeHeldOrder()
    }

    /// The desktop's do-not-disturb as last read; `nil` until the first reading.
    var desktopDoNotDisturb: DesktopDoNotDisturb? { doNotDisturb.desktop }

    /// An immediate `Post` that the switch holds back: held (kept in the store as a scheduled notification that came
    /// due now), or dropped when the post says so. The call is answered with its id once that is on disk; a dropped
    /// one's poster then gets `Closed` with reason 5.
    func holdPost(
        _ call: DBusMethodCall, id: String, request: PostRequest, route: ResponseRoute, category: NotificationCategory?
    ) async {
        let content = request.content
        let sender = call.sender
        var changes: [DaemonStore.Change] = []
        if table[id]?.isScheduled == true { changes += await unschedule(id) }
        let previous = table[id]
        if previous?.isHeld == true { changes.append(.unschedule(id: id)) }
        var entry = TrackedNotification(
            .posted, appName: content.appName ?? defaultAppName, poster: sender, route: route, content: content,
            reportsDismissal: category?.reportsDismissal ?? false)
        entry.waits = previous?.waits ?? []
        if request.ifDoNotDisturb == .drop {
            table[id] = entry
            end(id, why: Self.droppedWhy)
            logger.debug("dropped while do-not-disturb is on", metadata: ["notification.id": "\(id)"])
            let commit = commits.submit(changes)
            let connection = self.connection
            let failure = storeFailure
            jobs.yield {
                do {
                    try await commit.wait()
                    call.reply([.string(id)])
                    try? connection.emit(
                        .closed(id: id, reason: BridgeCloseReason.droppedWhileDoNotDisturb), to: sender)
                } catch {
                    call.fail(failure(error))
                }
            }
            return
        }
        // The scheduler's clock, as for every scheduled notification: a held one restored is due at once by it.
        let now = await scheduler.now
        let trigger = NotificationTrigger.date(.instant(secondsSince1970: now.timeIntervalSince1970), repeat: nil)
        let post = ScheduledPost(
            content: content, route: route, poster: sender, hints: request.hints, trigger: trigger)
        let notification = ScheduledNotification(
            id: id, appName: entry.appName, trigger: trigger, payload: PendingPost(post), scheduledAt: now,
            timeZoneIdentifier: await scheduler.timeZone.identifier)
        let firing = ScheduledFiring(
            notification: notification.replacingPayload(with: post), occurrence: now, firedAt: now, nextFireDate: nil)
        // A held notification replaced keeps its place.
        let order: UInt64
        if case .held(_, let kept)? = previous?.phase { order = kept } else { order = takeHeldOrder() }
        _ = entry.handle(.held(firing, order: order), id: id)
        table[id] = entry
        changes.append(.schedule(notification))
        logger.debug("held while do-not-disturb is on", metadata: ["notification.id": "\(id)"])
        reply(call, after: commits.submit(changes), with: [.string(id)])
        heldPolls.yield()
    }

    /// A scheduled notification that came due while the switch holds it back: held (its progress is not recorded,
    /// so that the store keeps it and a restart holds it again), or dropped when its post says so.
    func holdFiring(_ firing: ScheduledFiring<ScheduledPost>, order: UInt64?) {
        let id = firing.notification.id
        let post = firing.notification.payload
        if post.ifDoNotDisturb == .drop {
            logger.debug("dropped while do-not-disturb is on", metadata: ["notification.id": "\(id)"])
            end(id, why: Self.droppedWhy, reason: BridgeCloseReason.droppedWhileDoNotDisturb.rawValue)
            recordFired(firing)
            return
        }
        let place = order ?? takeHeldOrder()
        table.update(id) { entry in
            if !entry.isOnServer {
                (entry.poster, entry.route, entry.content) = (post.poster, post.route, post.content)
            }
        }
        apply(.held(firing, order: place), to: id)
        logger.debug("held while do-not-disturb is on", metadata: ["notification.id": "\(id)"])
        heldPolls.yield()
    }

    /// Shows what was held back and is let through now, oldest first, each once the server has answered the one
    /// before, so that they come in the order they were posted; one still held back (by the desktop's switch or the
    /// focus mode on) keeps its place without keeping those behind it waiting. One run at a time.
    /// When a focus mode ended with more than a few held, its digest stands for them instead
    /// (``showsDigest()``).
    func releaseHeld() {
        guard !stopping, hasHeld, !showsDigest(), doNotDisturb.beginReleasing() else { return }
        jobs.yield { [weak self] in await self?.releaseHeldInOrder() }
    }

    private func releaseHeldInOrder() async {
        defer { doNotDisturb.endReleasing() }
        var shown = 0
        var passed: UInt64?
        // Each pass takes the held ones placed after the last pass, so one held again meanwhile is not taken twice.
        while !stopping {
            let pass = heldInOrder(after: passed)
            guard let last = pass.last else { break }
            passed = last.order
            for (firing, order) in pass {
                guard !stopping else { break }
                let content = firing.notification.payload.content
                await readSettings(of: content)
                guard case .held(_, order)? = table[firing.notification.id]?.phase, !holdsBackFiring(content) else {
                    continue
                }
                let (answered, answer) = AsyncStream<Void>.makeStream()
                let handed = await showScheduled(firing, heldOrder: order) {
                    answer.yield()
                    answer.finish()
                }
                if handed {
                    for await _ in answered { break }
                    shown += 1
                }
            }
        }
        if shown > 0 {
            let gate = focusGate(desktopUnread: false)
            logger.info(
                "showed the notifications do-not-disturb held back that it lets through now",
                metadata: [
                    "count": "\(shown)", "dnd.desktop": "\(gate.desktopIsOn ? "on" : "off")",
                    "focus.mode": "\(gate.focus?.mode.name ?? "none")",
                ])
        }
    }

    /// The held notifications placed after `order` (all when `nil`), with their places, in order.
    private func heldInOrder(after order: UInt64?) -> [(ScheduledFiring<ScheduledPost>, order: UInt64)] {
        var held: [(ScheduledFiring<ScheduledPost>, order: UInt64)] = []
        for (_, entry) in table.live {
            guard case .held(let firing, let place) = entry.phase, order.map({ place > $0 }) ?? true else { continue }
            held.append((firing, place))
        }
        return held.sorted { $0.order < $1.order }
    }

    /// The held notifications `filter` selects for `caller`, in the order they are to be shown, as `ListPending`
    /// lists them: with `held` true and no fire date.
    func listedHeld(_ filter: NotificationFilter, caller: String) -> [DBusValue] {
        var held: [(order: UInt64, value: DBusValue)] = []
        for (id, entry) in table.live {
            guard case .held(let firing, let order) = entry.phase,
                filter.selects(appName: entry.appName, poster: entry.poster, content: entry.content, caller: caller)
            else { continue }
            let post = firing.notification.payload
            var entries = WireEntries(
                NotificationCoding.encode(id: id, content: post.content, route: post.route.listed))
            entries?[ListedKeys.held] = true
            if let entries { held.append((order, entries.value)) }
        }
        return held.sorted { $0.order < $1.order }.map(\.value)
    }
}
