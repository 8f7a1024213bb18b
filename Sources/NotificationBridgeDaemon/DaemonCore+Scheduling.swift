import DBusCore
import FoundationEssentials
import NotificationBridge
import NotificationBridgeAPI
import NotificationModel
import NotificationScheduling
import NotificationStore

/// Scheduled notifications and the store that keeps them (and the categories) across restarts.
extension DaemonCore {
    /// Schedules a notification: the scheduler takes it now, the returned commit puts it on disk, with
    /// `alsoCommitting` before it in the same commit.
    func schedule(
        _ content: NotificationContent, trigger: NotificationTrigger, id: String, route: ResponseRoute,
        poster: String, hints: [String: DBusValue] = [:], ifDoNotDisturb: DoNotDisturbChoice? = nil,
        alsoCommitting changes: [DaemonStore.Change] = []
    ) async throws(DBusFailure) -> DurableCommits.Commit {
        let registered = categories
        do throws(NotificationValidationError) {
            try content.validate(isCategoryRegistered: { registered[$0] != nil })
        } catch {
            throw error.bridgeFailure
        }
        let appName = content.appName ?? defaultAppName
        let notification = ScheduledNotification(
            id: id, appName: appName, trigger: trigger,
            payload: PendingPost(
                ScheduledPost(
                    content: content, route: route, poster: poster, hints: hints, trigger: trigger,
                    ifDoNotDisturb: ifDoNotDisturb)),
            scheduledAt: await scheduler.now,
            timeZoneIdentifier: await scheduler.timeZone.identifier)
        let previous = table[id]
        // A replacement of one of the app's scheduled notifications takes its place: it adds none.
        let adds = previous.map { !$0.isScheduled || $0.appName != appName } ?? true
        let count = table.scheduledCount(of: appName)
        if adds, count >= ScheduledLimit.perApp { throw ScheduledLimit.failure(appName: appName, count: count) }
        var entry =
            previous.map { previous in
                var entry = previous
                (entry.poster, entry.route) = (poster, route)
                // What the server shows stays described by its own content until the replacement fires.
                if !entry.isOnServer { entry.share(notification.payload.selection) }
                return entry
            }
            ?? TrackedNotification(
                .scheduled, appName: appName, poster: poster, route: route, sharing: notification.payload.selection,
                reportsDismissal: false)
        _ = entry.handle(.scheduled, id: id)
        entry.isScheduled = true
        // In the table before the scheduler has it: a fire date that has passed fires while this waits on the
        // scheduler, and the firing must find it.
        table[id] = entry
        // The scheduler keeps what selects it; its post goes to the store, and is read back from there when it fires.
        let report = await scheduler.restore([notification.replacingPayload(with: notification.payload.inStore)])
        if !report.finished.isEmpty || !report.rejected.isEmpty {
            table[id] = previous
            throw BridgeError.invalid("the notification's fire date never comes; give a later 'fire-date' or 'in'")
        }
        logger.debug(
            "scheduled",
            metadata: [
                "notification.id": "\(id)", "notification.app": "\(appName)", "dbus.sender": "\(poster)",
                "notification.route": "\(route.kind)",
            ])
        return commits.submit(changes + [.schedule(notification)])
    }

    /// Cancels a scheduled notification; returns the change that forgets it on disk. One that is not showing ends.
    func unschedule(_ id: String, why: String = "was withdrawn") async -> [DaemonStore.Change] {
        guard let entry = table[id], entry.isScheduled else { return [] }
        await scheduler.withdraw(id: id)
        return unscheduled(id, entry, why: why)
    }

    /// Cancels the scheduled notifications `ids` that are still scheduled, asking the scheduler once for them all;
    /// returns the changes that forget them on disk, by id. Those not showing end.
    func unschedule(_ ids: [String], why: String = "was withdrawn") async -> [String: [DaemonStore.Change]] {
        let scheduled = ids.compactMap { id in table[id].flatMap { $0.isScheduled ? (id, $0) : nil } }
        guard !scheduled.isEmpty else { return [:] }
        await scheduler.withdraw(ids: Set(scheduled.map(\.0)))
        var changes: [String: [DaemonStore.Change]] = [:]
        for (id, entry) in scheduled { changes[id] = unscheduled(id, entry, why: why) }
        return changes
    }

    /// Ends the scheduling of `id`, which the scheduler holds no longer; `entry` is the notification as it was when
    /// it was still scheduled.
    private func unscheduled(_ id: String, _ entry: TrackedNotification, why: String) -> [DaemonStore.Change] {
        table.update(id) { $0.isScheduled = false }
        switch entry.phase {
        case .pending, .awaitingServer, .handedToApp:
            end(id, why: why, waitsMessage: "notification '\(id)' \(why) before it was shown")
        default:
            break
        }
        logger.debug("unscheduled", metadata: ["notification.id": "\(id)"])
        return [.unschedule(id: id)]
    }

    /// Shows a scheduled notification that came due, through the same path as an immediate `Post`, then records its
    /// progress (a crash in between shows it again at the next start rather than never).
    func fired(_ pending: ScheduledFiring<PendingPost>) async {
        let id = pending.notification.id
        // Where the desktop announces no change of its do-not-disturb, it is read before anything is shown.
        await refreshDoNotDisturb()
        // Withdrawn while the firing was on its way, or the daemon is stopping (it fires again at the next start).
        guard !stopping, table[id]?.isScheduled == true, let post = await storedPost(id) else { return }
        // Read before the checks again: whether it waits for do-not-disturb is decided without waiting.
        await readSettings(of: post.content)
        guard !stopping, table[id]?.isScheduled == true else { return }
        let firing = pending.replacingPayload(with: post)
        if firing.nextFireDate == nil { table.update(id) { $0.isScheduled = false } }
        if handToForegroundApp(id, post) {
            apply(.handedToApp(post), to: id)
            recordFired(firing)
            return
        }
        await showScheduled(firing)
    }

    /// The post of the scheduled notification `id`, read back from the store; `nil`, with the notification dropped,
    /// when the store has none (its `Post` failed to save it, and it is being withdrawn) or cannot read it.
    private func storedPost(_ id: String) async -> ScheduledPost? {
        let failure: NotificationStoreError?
        do throws(NotificationStoreError) {
            if let post = try await commits.storedPost(id: id) { return post }
            failure = nil
        } catch {
            failure = error
        }
        // Withdrawn meanwhile, or the store closed as the daemon stops: nothing to drop.
        guard !stopping, table[id]?.isScheduled == true else { return nil }
        if let failure {
            logger.error(
                "cannot read a scheduled notification back from the state; it is dropped",
                metadata: [
                    "notification.id": "\(id)", "error": "\(failure)",
                ])
        } else {
            logger.notice(
                "a scheduled notification came due that was never saved; it is dropped",
                metadata: [
                    "notification.id": "\(id)"
                ])
        }
        commits.submit(await unschedule(id, why: "could not be read from the state"))
        return nil
    }

    /// Hands a scheduled notification to the server, as a delivery (``deliver(_:turns:admitted:)``): a firing, or
    /// a release of one held back (`heldOrder`: its place among the held ones). Without a server it waits for one;
    /// while the desktop's do-not-disturb or the focus mode on holds it back it is held. Returns whether it was handed
    /// to the server, whose answer `answered` then learns.
    ///
    /// The entry moves to `.posting` before anything is awaited, so that a firing is handed over once: whoever
    /// looks at the entry meanwhile (``serverAppeared()``, another try) sees that its show is out.
    @discardableResult
    func showScheduled(
        _ firing: ScheduledFiring<ScheduledPost>, heldOrder: UInt64? = nil,
        answered: (@Sendable () -> Void)? = nil
    ) async -> Bool {
        let id = firing.notification.id
        let post = firing.notification.payload
        table.update(id) { entry in
            (entry.poster, entry.route, entry.content) = (post.poster, post.route, post.content)
        }
        apply(.sent, to: id)
        let category = await category(of: post.content)
        table.update(id) { $0.reportsDismissal = category?.reportsDismissal ?? false }
        let delivery = Delivery(
            heldOrder == nil ? .firing : .release, id: id, content: post.content, category: category,
            hints: post.hints, repeats: firing.nextFireDate != nil)
        do {
            try await deliver(delivery) {
                let sent = serverArrivals.stamp
                return DeliveryAdmission { [weak self] result, wasOut in
                    await self?.firingAnswered(firing, result, wasOut: wasOut, sent: sent)
                    answered?()
                }
            }
            return true
        } catch {
            switch error {
            case .heldBack:
                holdFiring(firing, order: heldOrder)
            case .refused(let failure):
                // The user's settings keep it off the screen: it fired, invisibly.
                logger.info(
                    "a scheduled notification came due and is not shown",
                    metadata: [
                        "notification.id": "\(id)", "reason": "\(failure.message)",
                    ])
                end(id, why: "was not shown (\(failure.message))")
                recordFired(firing)
            }
            return false
        }
    }

    /// A firing's `Notify` was answered (`sent`: when it was sent, in the order servers became ready): it is recorded
    /// as shown, or waits for a server, or is shown again at once where a server became ready since it was sent.
    private func firingAnswered(
        _ firing: ScheduledFiring<ScheduledPost>, _ result: Result<DurableCommits.Commit?, DBusFailure>, wasOut: Bool,
        sent: ServerArrivals.Stamp
    ) async {
        let id = firing.notification.id
        // Withdrawn (or posted anew) while its Notify was out: the withdrawal took it off the schedule, and whatever
        // the server answered, this firing is over. Closed on the server before this answer was read (the session
        // reports a close as soon as the server's answer is in, and this turn may come after it): shown all the same,
        // so recorded, or a restart would show it again. A repeating one withdrawn is no longer scheduled.
        guard wasOut else {
            if let entry = table[id], entry.hasEnded, firing.nextFireDate == nil || entry.isScheduled {
                recordFired(firing)
            }
            return
        }
        if case .failure(let failure) = result {
            if failure.name == BridgeError.noServer {
                // Its progress is not recorded, so that a restart before a server appears shows it too. Decided in this
                // turn of the actor, as an arrival is: a server that became ready while the show was out found nothing
                // waiting, and this tries again now.
                apply(.awaitingServer(firing), to: id)
                switch serverArrivals.decision(sentAt: sent) {
                case .awaitServer:
                    logger.notice(
                        "a scheduled notification came due with no notification server; it is shown once one appears",
                        metadata: ["notification.id": "\(id)"])
                case .showAgain:
                    await showAwaiting(id)
                }
                return
            }
            if failure.name == BridgeError.serverTimeout {
                // The server hangs: kept, and shown by the server that replaces it, or by this one once it answers
                // again (asked again after a pause; an answer to the call that timed out is closed by the session).
                apply(.awaitingServer(firing), to: id)
                logger.notice(
                    "a scheduled notification came due while the server does not answer; shown once one answers",
                    metadata: ["notification.id": "\(id)"])
                let pause = session.serverTimeout
                jobs.yield { [weak self] in
                    try? await Task.sleep(for: pause)
                    guard !Task.isCancelled else { return }
                    await self?.showAwaiting(id)
                }
                return
            }
            logger.warning(
                "cannot show a scheduled notification",
                metadata: [
                    "notification.id": "\(id)", "error": "\(failure.message)",
                ])
        }
        recordFired(firing)
    }

    /// Records that a firing was shown: a one-shot notification is no longer scheduled, a repeating one moved on.
    func recordFired(_ firing: ScheduledFiring<ScheduledPost>) {
        let id = firing.notification.id
        commits.submit([
            firing.nextFireDate == nil
                ? .unschedule(id: id)
                : .schedule(firing.notification.replacingPayload(with: PendingPost(firing.notification.payload)))
        ])
    }

    /// A notification server appeared: shows what came due while there was none, oldest first.
    func serverAppeared() async {
        guard !stopping else { return }
        let waiting = table.live.compactMap { _, entry -> ScheduledFiring<ScheduledPost>? in
            if case .awaitingServer(let firing) = entry.phase { return firing }
            return nil
        }.sorted { $0.occurrence < $1.occurrence }
        guard !waiting.isEmpty else { return }
        logger.info(
            "a notification server appeared; showing scheduled notifications that came due meanwhile",
            metadata: ["count": "\(waiting.count)"])
        for firing in waiting { await showAwaiting(firing.notification.id) }
    }

    /// Shows the firing that `id` waits with for a server, if it still waits: it may have been shown, withdrawn or
    /// replaced while an earlier one was being handed over.
    private func showAwaiting(_ id: String) async {
        if case .awaitingServer(let waiting)? = table[id]?.phase {
            await readSettings(of: waiting.notification.payload.content)
        }
        guard case .awaitingServer(let firing)? = table[id]?.phase else { return }
        await showScheduled(firing)
    }

    /// Takes back the categories and scheduled notifications of the last run; those whose time passed fire now, once.
    func restore() async {
        defer {
            commits.releaseRestoredState()
            finishRestoring()
        }
        // Before anything saved comes due: the gate holds back by the mode on.
        await restoreFocus()
        let state = commits.state
        for category in state.categories.values.sorted(by: { $0.id < $1.id }) {
            do {
                try categories.register(category, by: nil)
            } catch {
                logger.error(
                    "a saved category is not valid any more; it is not registered",
                    metadata: [
                        "category.id": "\(category.id)", "error": "\(error)",
                    ])
            }
        }
        await restoreDelivered()
        // What the bounds no longer keep (they may have changed, or time passed while the daemon was stopped).
        commits.submit([history.pruning])
        // By id where the times are equal, so that they fire in the same order after every restart. Sorted by the
        // times copied out beside each notification, the ids compared only where the times are equal: with
        // thousands pending, reading each comparison's two times through the notifications took most of the sort.
        let saved = state.pending.values.map { (at: $0.scheduledAt, notification: $0) }
            .sorted { $0.at != $1.at ? $0.at < $1.at : $0.notification.id < $1.notification.id }
            .map(\.notification)
        table.reserveCapacity(adding: saved.count)
        for notification in saved {
            table.markScheduled(notification.id) {
                let post = notification.payload
                return TrackedNotification(
                    .scheduled, appName: notification.appName ?? defaultAppName, poster: post.poster,
                    route: post.route, sharing: post.selection, reportsDismissal: false)
            }
        }
        let report = await scheduler.restore(saved)
        let dropped = report.finished.map(\.id) + report.rejected.map(\.notification.id)
        for id in dropped {
            table.update(id) { $0.isScheduled = false }
            if case .pending? = table[id]?.phase { end(id, why: "was dropped") }
        }
        for rejected in report.rejected {
            logger.error(
                "a saved scheduled notification is not valid any more; it is dropped",
                metadata: [
                    "notification.id": "\(rejected.notification.id)", "error": "\(rejected.error)",
                ])
        }
        if !dropped.isEmpty { commits.submit(dropped.map { .unschedule(id: $0) }) }
        if !saved.isEmpty || !state.categories.isEmpty {
            logger.info(
                "restored scheduled notifications and categories",
                metadata: [
                    "state.pending": "\(saved.count - dropped.count)", "state.categories": "\(state.categories.count)",
                    "state.directory": "\(commits.directory)",
                ])
        }
    }
}
