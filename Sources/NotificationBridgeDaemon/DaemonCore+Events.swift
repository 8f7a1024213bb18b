import DBusCore
import FoundationEssentials
import NotificationBridge
import NotificationBridgeAPI
import NotificationModel
import ProcessSupport

/// What the notification server reports, through the session's one ordered stream of events, and `WaitForResponse`.
extension DaemonCore {
    /// Moves a notification on by one event of the session.
    func handle(_ event: SessionEvent) async {
        switch event {
        case .snoozed(let snooze):
            // Not through the lock gate: putting off needs no unlocking.
            await self.snooze(snooze)
        case .responded(let answer):
            let response = answer.response
            switch NotificationOwner(id: response.notificationID) {
            case .daemon(let own):
                answered(own, actionID: answer.actionID)
            case .app:
                // A response that needs an unlocked session waits for the unlock; the events after it go on meanwhile.
                await lockGate.deliver(
                    notificationID: response.notificationID, requiresAuthentication: answer.requiresAuthentication
                ) { [weak self] in
                    await self?.respond(response)
                }
            }
        case .closed(let closure):
            closed(closure)
        case .promptEnded(let ending):
            let id = ending.notification.id
            let ended = apply(.promptEnded, to: id).contains { if case .end = $0 { true } else { false } }
            if ended { logger.debug("ended without a response", metadata: ["notification.id": "\(id)"]) }
        case .reposted(let id, let serverID, let server):
            await repost(id, serverID: serverID, server: server)
        case .serverChanged(let owner):
            // A server that took the name may not answer yet: what waits for one is shown once it is ready.
            doNotDisturbWatcher.serverChanged(owner: owner, info: nil)
        case .serverReady(let owner, let info):
            doNotDisturbWatcher.serverChanged(owner: owner, info: info)
            serverArrivals.serverReady()
            await serverAppeared()
        }
    }

    // MARK: Responses

    /// Delivers a response to the one place chosen when the notification was posted; for the posting connection,
    /// once it has left the bus, to a waiting `WaitForResponse` call or the connection attached as the notification's
    /// app. Typed text goes to that place only (see ``KeptResponse``).
    func respond(_ notificationResponse: NotificationResponse) async {
        let id = notificationResponse.notificationID
        guard let before = table[id] else { return }
        // Asked of the bus before anything changes: a WaitForResponse handled while the bus answers must find the
        // entry as it was (and its call then answered below), not ended without the response it is about to keep.
        var posterIsConnected = true
        if case .poster(let poster) = before.route {
            posterIsConnected = (try? await connection.nameHasOwner(poster)) ?? true
        }
        guard let entry = table[id] else { return }
        // The session's response keeps the token only for foreground actions.
        let response = BridgeResponse(notificationResponse, foreground: true)
        logger.debug(
            "response",
            metadata: [
                "notification.id": "\(id)", "notification.action": "\(response.actionID)",
                "notification.route": "\(entry.route.kind)", "response.has-text": "\(response.text != nil)",
            ])
        table.update(id) { $0.respondedAction = response.actionID }
        // Routed before the transition: a `Closed` it sends comes after `Responded`, on every path.
        route(response, id: id, entry.route, appName: entry.appName, posterIsConnected: posterIsConnected)
        apply(.responded, to: id)
    }

    /// Sends a response to `route`, as ``respond(_:)`` chose it: the poster (or, once it has left, a waiting call or
    /// the app attached as `appName`), the command, or the app.
    func route(
        _ response: BridgeResponse, id: String, _ route: ResponseRoute, appName: String, posterIsConnected: Bool
    ) {
        switch route {
        case .poster(let poster):
            if posterIsConnected {
                emitResponded(response, to: poster)
                answerWaits(id, with: KeptResponse(response: response, textRecipient: .connection(poster)))
                break
            }
            // The poster has left: the text goes to one place, a waiting call first (it named this very id), else
            // the attached app, else the first call that comes for it later.
            let isAwaited = table[id].map { !$0.waits.isEmpty } ?? false
            if let app = attachments.current(for: appName)?.connection {
                emitResponded(isAwaited ? response.withoutText : response, to: app)
                answerWaits(id, with: KeptResponse(response: response, textRecipient: isAwaited ? .firstCall : .nobody))
            } else {
                answerWaits(id, with: KeptResponse(response: response, textRecipient: .firstCall))
            }
        case .command(let argv):
            // Spawning blocks for a moment (and longer on a loaded machine): on a thread of its own, not the actor's.
            let logger = self.logger
            let variables = response.environment
            let input = response.text.map { Array($0.utf8) }
            DesktopWorkerThread.detach(name: "command start") {
                do {
                    try CommandLauncher.launch(
                        argv, notificationID: id, variables: variables, input: input, logger: logger)
                } catch {
                    logger.warning(
                        "cannot start the notification's command",
                        metadata: [
                            "notification.id": "\(id)", "error": "\(error)",
                        ])
                }
            }
        case .application(let desktopEntry, let action):
            activations.activate(desktopEntry: desktopEntry, action: action ?? response.actionID, response: response)
        }
    }

    private func emitResponded(_ response: BridgeResponse, to receiver: String) {
        try? connection.emit(.responded(response), to: receiver)
    }

    /// Answers the `WaitForResponse` calls for `id` with the response, each with the text only where it may go, or
    /// keeps it for a later call.
    private func answerWaits(_ id: String, with kept: KeptResponse) {
        guard let entry = table[id] else { return }
        guard !entry.waits.isEmpty else {
            table.update(id) { entry in
                entry.keptResponses = Array(
                    (entry.keptResponses + [kept]).suffix(TrackedNotification.maximumKeptResponses))
            }
            return
        }
        var kept = kept
        for call in entry.waits { answer(call, with: &kept) }
        table.update(id) { $0.waits = [] }
    }

    /// Answers a `WaitForResponse` call; a text for the first call is given to this one, and no other.
    private func answer(_ call: DBusMethodCall, with kept: inout KeptResponse) {
        let response = kept.response(for: call.sender)
        call.reply([.string(response.actionID), response.dictionary])
        if kept.textRecipient == .firstCall { kept.textRecipient = .nobody }
    }

    // MARK: Closures

    /// A notification left the server: its poster gets `Closed`; it ends, unless a response is still to come.
    func closed(_ closure: SessionClosure) {
        let id = closure.notification.id
        if case .daemon(let own) = NotificationOwner(id: id) { return closed(own, closure) }
        guard table[id] != nil else { return }
        let thread = threads.key(of: id)
        let wasNewest = thread.map { threads.newest(of: $0) == id } ?? false
        apply(.closed(closure.reason, acted: closure.acted, dismissed: closure.dismissed), to: id)
        if let thread { threadMemberClosed(id, of: thread, wasNewest: wasNewest, closure) }
        logger.debug("closed", metadata: ["notification.id": "\(id)", "notification.reason": "\(closure.reason)"])
    }

    /// Moves notification `id` on by `event` (``TrackedTransition``) and performs the effects; returns them.
    ///
    /// `replaced` is the notification a `Post` replaced, put back by ``TrackedTransition/Effect/restoreReplaced``.
    /// With `deferringStoreChanges`, ``TrackedTransition/Effect/forgetDelivered`` and
    /// ``TrackedTransition/Effect/keepStacked`` and ``TrackedTransition/Effect/recordHistory(_:)`` are left to the
    /// caller, which puts them in the commit its call is answered after (one for all the notifications a `WithdrawAll`
    /// ends). ``TrackedTransition/Effect/keepDelivered`` needs the id the server gave and a turn on the bus, so the
    /// caller that has them performs it.
    @discardableResult
    func apply(
        _ event: TrackedTransition.Event, to id: String, replaced: TrackedNotification? = nil,
        deferringStoreChanges: Bool = false
    ) -> [TrackedTransition.Effect] {
        guard let entry = table[id] else { return [] }
        var effects: [TrackedTransition.Effect] = []
        table.update(id) { effects = $0.handle(event, id: id) }
        for effect in effects {
            switch effect {
            case .forgetDelivered:
                if !deferringStoreChanges { forgetDelivered(id) }
            case .emitClosed(let reason):
                emitClosed(id: id, reason: reason, to: entry.poster)
            case .end(let why, let waitsMessage):
                end(id, why: why, waitsMessage: waitsMessage)
            case .restoreReplaced:
                if let replaced { table.update(id) { $0 = replaced } }
            case .takeOffServer:
                takeOffServer(id)
            case .keepDelivered:
                break
            case .keepStacked:
                if !deferringStoreChanges { keepStacked(id) }
            case .recordHistory(let ending):
                if !deferringStoreChanges { recordHistory(id, entry, ending) }
            }
        }
        return effects
    }

    // MARK: Waiting

    /// Answers `WaitForResponse` now with a kept response, or later when the user acts; fails it when the
    /// notification ends without a response. A call from another connection than the poster's, while the poster is
    /// connected, gets the response without its typed text.
    func waitForResponse(id: String, call: DBusMethodCall) async throws(DBusFailure) {
        try checkRunning()
        try NotificationID.check(id)
        let peer = await peer(of: call.sender)
        guard let entry = table[id] else { throw table.missing(id) }
        try checkAccess(to: id, entry, by: peer, "wait for")
        if var kept = entry.keptResponses.first {
            table.update(id) { $0.keptResponses.removeFirst() }
            answer(call, with: &kept)
            return
        }
        if let why = entry.ending, !entry.isScheduled {
            throw DBusFailure(name: BridgeError.closed, message: "notification '\(id)' \(why) without a response")
        }
        switch entry.route {
        case .poster:
            break
        case .command:
            throw DBusFailure(
                name: BridgeError.notSupported,
                message: "notification '\(id)' sends its responses to its 'exec' command; post without 'exec' to "
                    + "wait for responses")
        case .application(let desktopEntry, _):
            throw DBusFailure(
                name: BridgeError.notSupported,
                message: "notification '\(id)' sends its responses to the app \(quotedForMessage(desktopEntry)); "
                    + "post without 'app-action' to wait for responses")
        }
        try checkWaitLimits(call.sender, appName: entry.appName)
        table.update(id) { $0.waits.append(call) }
    }

    /// Forgets the calls of a connection that left the bus, so that a response is kept for a later call instead of
    /// being sent to nobody.
    func connectionLeft(_ uniqueName: String) {
        attachments.remove(uniqueName)
        peers.forget(uniqueName)
        categories.connectionLeft(uniqueName)
        let affected = table.awaited.filter { table[$0]?.waits.contains { $0.sender == uniqueName } == true }
        for id in affected {
            table.update(id) { $0.waits.removeAll { $0.sender == uniqueName } }
        }
    }

    /// Stops taking calls and fails every waiting one.
    func beginShutdown() {
        stopping = true
        for id in table.awaited {
            for call in table[id]?.waits ?? [] {
                call.fail(
                    name: BridgeError.shuttingDown,
                    message: "notification-bridged is stopping; call WaitForResponse again once it is back (D-Bus "
                        + "activation starts it anew)")
            }
            table.update(id) { $0.waits = [] }
        }
    }
}
