import DBusCore
import NotificationModel

/// Posting, replacing, adopting and withdrawing, one operation at a time per notification.
extension NotificationServerSession {
    /// Reserves the next place in the line of operations on notification `id`, without waiting: an owner that
    /// reserves in the order it was asked (an actor, before it hands the work to a task) has its operations on one
    /// notification done in that order. Pass the turn to exactly one of ``post(_:category:id:hints:turn:)``,
    /// ``showAgain(_:category:id:turn:)`` or ``withdraw(id:turn:)``, which ends it.
    package nonisolated func reserveTurn(for id: String) -> Turn { turns.reserve(id) }

    /// Shows a notification now, or replaces the one with the same `id`.
    ///
    /// A replacement goes to the server that shows the one it replaces, with that server's id for it; when that server
    /// has left the bus, the notification is posted anew to the one that owns the name now.
    ///
    /// - Parameters:
    ///   - content: what to show.
    ///   - category: the registered category it names.
    ///   - id: the owner's id for it.
    ///   - hints: server hints of the caller's own, sent after the bridge's.
    ///   - turn: the turn reserved for this operation; `nil` reserves one now.
    ///   - inPlaceOf: another notification, with a turn reserved on it, whose place on the server this one takes
    ///     (the same server id, through `replaces_id`) when `id` itself is not on the server: the newest notification
    ///     of a thread takes the place of the one shown. That one is no longer followed afterwards; the operation
    ///     waits for that turn first, so that a `Notify` of it still out is answered before.
    /// - Returns: where it went.
    /// - Throws: `DBusFailure` when no server runs, or when the server refuses it or does not answer within
    ///   ``Configuration/serverTimeout`` (`NoReply`).
    @discardableResult
    package func post(
        _ content: NotificationContent, category: NotificationCategory?, id: String,
        hints: [String: DBusValue] = [:], turn: Turn? = nil, inPlaceOf: (id: String, turn: Turn)? = nil
    ) async throws -> Placement {
        // Both turns are reserved by the caller in one go, in the order it was asked: waiting for the other
        // notification's first cannot deadlock with an operation reserved later.
        if let other = inPlaceOf?.turn { await turns.wait(for: other) }
        defer { if let other = inPlaceOf?.turn { turns.end(other) } }
        let turn = turn ?? turns.reserve(id)
        await turns.wait(for: turn)
        defer { turns.end(turn) }
        try await ensureServer()
        return try await place(content, category: category, id: id, hints: hints, inPlaceOf: inPlaceOf?.id)
    }

    /// Shows notification `id` again in its place with `content` (a thread's count brought up to date), during `turn`,
    /// if the session still follows it: one the server has closed meanwhile is left closed, where replacing it would
    /// have the server show it anew.
    ///
    /// - Returns: whether it was shown again.
    /// - Throws: as ``post(_:category:id:hints:turn:inPlaceOf:)``.
    @discardableResult
    package func refresh(
        _ content: NotificationContent, category: NotificationCategory?, id: String, turn: Turn
    ) async throws -> Bool {
        await turns.wait(for: turn)
        defer { turns.end(turn) }
        guard let shown = router.notification(id: id) else { return false }
        try await ensureServer()
        let placed = try await place(content, category: category, id: id, hints: [:])
        // A server answers a replacement with the id it replaced; another id means the notification was gone when
        // the call came (the user closed it while the call was out), and the server showed it anew. It is closed
        // again: its close reaches the owner as any close does, whether or not the first one was read in time.
        guard placed.server != shown.serverOwner || placed.serverID == shown.serverID else {
            try? client.requestClose(placed.serverID, destination: placed.server)
            logger.debug("closed while shown again; closed again", metadata: ["notification.id": "\(id)"])
            return false
        }
        // Closed just after the server took it again, and no longer followed (see place).
        return router.notification(id: id) != nil
    }

    /// Posts during a turn: the previous notification of the id, if any, is replaced on its own server; else the one
    /// it takes the place of, which is then no longer followed.
    private func place(
        _ content: NotificationContent, category: NotificationCategory?, id: String, hints: [String: DBusValue],
        inPlaceOf other: String? = nil
    ) async throws -> Placement {
        let own = router.notification(id: id)
        let taken = own == nil ? other.flatMap { router.notification(id: $0) } : nil
        // Replaced only on a server that still owns the name: one that has lost it may run on for a moment (as dunst
        // does once `dunst --replace` took over), and a notification it took now would be on no screen, and not among
        // those the session posts again to the new server, which it has listed already.
        let previous = (own ?? taken).flatMap { $0.serverOwner == nil || $0.serverOwner == serverOwner ? $0 : nil }
        let encoded = encoder.encode(
            content, category: category, replacesID: previous?.serverID ?? 0, senderPID: processID,
            extraHints: hints)
        let sentAt = ContinuousClock.now
        // The signals about the id taken over wait for the answer: it says which notification they are about.
        let inFlight = notifyStarted(takingOver: own == nil ? previous?.serverID : nil)
        postingIDs[id, default: 0] += 1
        defer {
            postingIDs[id, default: 1] -= 1
            if postingIDs[id] == 0 { postingIDs[id] = nil }
        }
        let answer: (id: UInt32, server: String)
        do {
            if let previous, let owner = previous.serverOwner {
                answer = try await replace(encoded.request, on: owner)
            } else {
                answer = try await notify(encoded.request)
            }
        } catch {
            await notifyEnded(inFlight)
            throw error
        }
        // Where the server kept the id, a close of it held meanwhile is of this one; where it gave another, the one
        // taken over was gone before (the close is of that one), and is let go of after the close.
        let keptTheID = taken.map { answer.id == $0.serverID && answer.server == $0.serverOwner } ?? false
        // Replaced under the id it had, and closed meanwhile: the server's close came after it took this Notify and
        // was read first, so its owner has heard of the close. Followed again, it would be posted anew to the next
        // server that takes the name; it is closed instead, in case the server shows it still.
        if let own, router.notification(id: id) == nil, answer.id == own.serverID, answer.server == own.serverOwner {
            await notifyEnded(inFlight)
            try? client.requestClose(answer.id, destination: answer.server)
            logger.debug("closed while its replacement was out; not followed", metadata: ["notification.id": "\(id)"])
            return Placement(serverID: answer.id, server: answer.server)
        }
        if keptTheID, let taken { router.forget(id: taken.id) }
        router.follow(
            PostedNotification(
                id: id, serverID: answer.id, content: content, category: category, hints: hints, encoded: encoded,
                serverOwner: answer.server, sentAt: sentAt))
        await notifyEnded(inFlight)
        if !keptTheID, let taken { router.forget(id: taken.id) }
        endWhenExpired(id: id, serverID: answer.id, server: answer.server, timeout: content.timeout)
        logger.debug("posted", metadata: ["notification.id": "\(id)", "notification.server-id": "\(answer.id)"])
        return Placement(serverID: answer.id, server: answer.server)
    }

    /// Replaces a notification on the server `owner` that shows it; when that server has gone, posts it anew (without
    /// `replaces_id`, which would name another notification on the server that owns the name now).
    private func replace(_ request: NotifyRequest, on owner: String) async throws -> (id: UInt32, server: String) {
        do {
            return try await notify(request, destination: owner)
        } catch let failure as DBusFailure
            where failure.name == DBusFailure.Name.serviceUnknown || failure.name == DBusFailure.Name.nameHasNoOwner
        {
            var fresh = request
            fresh.replacesID = 0
            return try await notify(fresh)
        }
    }

    /// Calls `Notify` once and waits at most ``Configuration/serverTimeout`` for the answer; the call itself goes on
    /// as a job of the session. An answer that comes after the caller was told the call failed is not left on the
    /// screen: its notification is closed on the server that took it. Until ``run()`` runs, the call goes on in a
    /// task of its own, under a timer of its own, and a late answer is closed the same way.
    func notifyOnce(
        _ request: NotifyRequest, destination: String
    ) async throws -> (id: UInt32, server: String) {
        let answer = NotifyAnswerSlot()
        let call = notifyCall(request, destination: destination, answeredIn: answer)
        guard isRunning else {
            // Not a plain call bounded by the timeout: the bus would drop an answer that came after it, and the
            // notification would stay on the screen with nobody following it. The daemon takes calls before the
            // session's run() starts, and on a busy machine that start may come seconds later.
            Task(operation: call)
            let timeout = configuration.serverTimeout
            let timer = Task {
                try await Task.sleep(for: timeout)
                answer.fulfil(.failure(Self.noAnswer(within: timeout)))
            }
            defer { timer.cancel() }
            return try await answer.value.get()
        }
        let queued = work.yield(call)
        if case .terminated = queued {
            throw DBusFailure(name: DBusFailure.Name.disconnected, message: "the notification session has stopped")
        }
        // The answered ones at the front go now rather than when the watchdog wakes: a busy session would otherwise
        // keep every call of the last timeout's length.
        awaitedAnswers.removeFirst(awaitedAnswers.prefix { $0.slot.isAnswered }.count)
        awaitedAnswers.append(AwaitedAnswer(slot: answer, due: .now + configuration.serverTimeout))
        if !isWatchingAnswers {
            isWatchingAnswers = true
            work.yield { [weak self] in await self?.watchAwaitedAnswers() }
        }
        return try await answer.value.get()
    }

    /// Fails the `Notify` calls that the server has not answered by the time they are due, oldest first, and ends when
    /// none is awaited. One task for every call, asleep until the oldest is due: a timer per call would stay armed in
    /// the executor until its deadline even once its call was answered.
    private func watchAwaitedAnswers() async {
        defer { isWatchingAnswers = false }
        while !Task.isCancelled {
            let now = ContinuousClock.now
            let settled = awaitedAnswers.prefix { $0.slot.isAnswered || $0.due <= now }
            awaitedAnswers.removeFirst(settled.count)
            for overdue in settled where !overdue.slot.isAnswered {
                overdue.slot.fulfil(.failure(Self.noAnswer(within: serverTimeout)))
            }
            guard let next = awaitedAnswers.first else { return }
            do {
                try await Task.sleep(until: next.due)
            } catch {
                return
            }
        }
    }

    /// The call to `Notify` itself, which gives its answer in `answer`; an answer that comes after the caller was told
    /// the call failed is closed (``answeredLate(_:)``).
    private func notifyCall(
        _ request: NotifyRequest, destination: String, answeredIn answer: NotifyAnswerSlot
    ) -> @Sendable () async -> Void {
        let client = self.client
        return { [weak self] in
            let result: Result<(id: UInt32, server: String), any Error>
            do {
                // Long enough for any server that still runs; one that leaves makes the bus answer at once.
                result = .success(try await client.notify(request, destination: destination, timeout: .seconds(3600)))
            } catch {
                result = .failure(error)
            }
            if !answer.fulfil(result), case .success(let late) = result {
                await self?.answeredLate(late)
            }
        }
    }

    /// The failure a caller is told when the server has not answered `Notify` within `timeout`.
    private static func noAnswer(within timeout: Duration) -> DBusFailure {
        DBusFailure(
            name: DBusFailure.Name.noReply, message: "the notification server did not answer Notify within \(timeout)")
    }

    /// A `Notify` answered after its caller had given up: the notification is on the server, and nobody follows it.
    private func answeredLate(_ late: (id: UInt32, server: String)) {
        logger.info(
            "the notification server answered Notify after the call had failed; closing what it shows",
            metadata: ["notification.server-id": "\(late.id)", "server.owner": "\(late.server)"])
        try? client.requestClose(late.id, destination: late.server)
    }

    /// Shows an adopted notification again from this connection (see ``adopt(id:serverID:content:category:)``), so
    /// that servers which send their signals to the poster alone send them here.
    ///
    /// Where the server shows notifications through a process of its own (``NotificationServerInfo/displayBusName``:
    /// GNOME Shell), replacing keeps the banner but GNOME Shell 43 drops its buttons: the copy is closed and shown
    /// anew instead. Its close goes to the last poster, which is gone, so it ends nothing here.
    package func showAgain(
        _ content: NotificationContent, category: NotificationCategory?, id: String, turn: Turn? = nil
    ) async throws -> Placement {
        let turn = turn ?? turns.reserve(id)
        await turns.wait(for: turn)
        defer { turns.end(turn) }
        try await ensureServer()
        if serverInfo.displayBusName != nil, let shown = router.forget(id: id) {
            try? await client.closeNotification(shown.serverID, destination: shown.serverOwner)
        }
        return try await place(content, category: category, id: id, hints: [:])
    }

    /// Takes back a notification that an earlier run posted and that the server which owns the name now still shows,
    /// so that the user's response to it is routed like one posted now. Nothing is sent to the server.
    package func adopt(id: String, serverID: UInt32, content: NotificationContent, category: NotificationCategory?) {
        let encoded = encoder.encode(content, category: category, senderPID: processID)
        router.follow(
            PostedNotification(
                id: id, serverID: serverID, content: content, category: category, encoded: encoded,
                serverOwner: serverOwner))
        logger.debug("adopted", metadata: ["notification.id": "\(id)", "notification.server-id": "\(serverID)"])
    }

    /// Closes a notification on the server that shows it, and stops following it; returns it, or `nil` when it was
    /// not followed (then nothing is sent). A notification whose `Notify` is out is closed once the server has said
    /// which id it gave.
    @discardableResult
    package func withdraw(id: String, turn: Turn? = nil) async -> (any FollowedNotification)? {
        let turn = turn ?? turns.reserve(id)
        await turns.wait(for: turn)
        defer { turns.end(turn) }
        guard let notification = router.forget(id: id) else { return nil }
        // Addressed to the server that took it: the one that owns the name now may use the same id for another.
        if !closeSlots.take() { await withCheckedContinuation { closeSlots.wait($0) } }
        do {
            try await client.closeNotification(notification.serverID, destination: notification.serverOwner)
        } catch {
            // Closed already, or the server gone: either way it is off the screen, or will be with the server.
            logger.debug("CloseNotification failed", metadata: ["error": "\(error)"])
        }
        closeSlots.release()
        eventSink.yield(
            .closed(
                SessionClosure(
                    notification: notification, reason: .closedByCall, acted: notification.acted, dismissed: false,
                    awaitsPrompt: openPrompts[id] != nil)))
        return notification
    }

    /// The server's current id for a notification, or `nil` when it is not on the server.
    package func serverID(of id: String) -> UInt32? {
        router.serverID(of: id)
    }

    /// The notifications on the server: the owner's id, the server's id and what was posted.
    package func shownNotifications() -> [(id: String, serverID: UInt32, content: NotificationContent)] {
        router.all.map { ($0.id, $0.serverID, $0.content) }
    }

    /// The ids of the notifications on the server.
    package var shownIDs: [String] { router.all.map(\.id) }
}
