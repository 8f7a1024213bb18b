import DBusCore
import NotificationModel

/// What the server says about the notifications: actions, replies, closes, and what the session stands in for.
extension NotificationServerSession {
    /// Notes that a `Notify` is about to be sent, taking over `serverID` (the id of another notification, whose place
    /// it takes) when given; returns its ticket for ``notifyEnded(_:)``.
    func notifyStarted(takingOver serverID: UInt32? = nil) -> Int {
        let ticket = nextNotifyTicket
        nextNotifyTicket += 1
        notifiesInFlight[ticket] = signalsTakenIn
        takingOver[ticket] = serverID
        return ticket
    }

    /// Handles the signals held for the `Notify` that ended: those whose id is now followed, and those that came
    /// before every `Notify` still out was sent, which cannot be about any of them (the router then ignores them, as
    /// signals about notifications that are not the session's). What is held is so bounded by the signals that came
    /// during the oldest `Notify` still out, however busy the session stays.
    func notifyEnded(_ ticket: Int) async {
        notifiesInFlight[ticket] = nil
        takingOver[ticket] = nil
        let oldestOut = notifiesInFlight.values.min()
        let isReady = { [router, takingOver] (held: HeldSignal) in
            let serverID = held.received.signal.serverID
            guard !takingOver.values.contains(serverID) else { return false }
            return oldestOut.map { held.number <= $0 } ?? true
                || router.follows(serverID: serverID, from: held.received.sender)
        }
        let ready = earlySignals.filter(isReady)
        earlySignals.removeAll(where: isReady)
        for held in ready { await route(held.received) }
    }

    /// Takes in a signal from the server: holds it while a `Notify` sent before it is out and its id is not followed
    /// (it may be about that notification), or is taken over by a `Notify` out (its answer may be read after the
    /// signal: a close of the id it kept is then the close of the new notification, not of the one it replaced); else
    /// routes it.
    func process(_ received: ReceivedServerSignal) async {
        signalsTakenIn += 1
        let serverID = received.signal.serverID
        if !notifiesInFlight.isEmpty,
            !router.follows(serverID: serverID, from: received.sender) || takingOver.values.contains(serverID)
        {
            earlySignals.append(HeldSignal(received: received, number: signalsTakenIn))
            return
        }
        await route(received)
    }

    /// Acts on a signal: a response, a snooze, a prompt for text, or a close.
    private func route(_ received: ReceivedServerSignal) async {
        guard let event = router.handle(received.signal, from: received.sender) else { return }
        switch event {
        case .action(let notification, let action, let token):
            closeAfterAction(notification)
            if let action, action.isTextInput, encoder.textInputRendering(for: action) == .prompt {
                askForText(notification, action, token: token)
                return
            }
            respond(notification, action, actionID: action?.id ?? NotificationResponse.defaultActionID, token: token)
        case .snoozed(let notification, let interval):
            // No longer followed (its close is reported to nobody): closed here, resident or not, as it is put off.
            try? client.requestClose(notification.serverID, destination: notification.serverOwner)
            logger.debug(
                "snooze pressed",
                metadata: ["notification.id": "\(notification.id)", "snooze.seconds": "\(interval.seconds)"])
            eventSink.yield(.snoozed(SessionSnooze(notification: notification, interval: interval)))
        case .reply(let notification, let action, let text, let token):
            closeAfterAction(notification)
            respond(notification, action, actionID: action.id, text: text, token: token)
        case .closed(let notification, let reason, let dismissal):
            eventSink.yield(
                .closed(
                    SessionClosure(
                        notification: notification, reason: reason, acted: notification.acted, dismissed: dismissal,
                        awaitsPrompt: openPrompts[notification.id] != nil)))
            if dismissal && notification.category?.reportsDismissal == true {
                respond(notification, nil, actionID: NotificationResponse.dismissActionID)
            }
        }
    }

    private func respond(
        _ notification: any FollowedNotification, _ action: NotificationAction?, actionID: String,
        text: String? = nil, token: String? = nil, fromPrompt: Bool = false
    ) {
        logger.debug(
            "response",
            metadata: [
                "notification.id": "\(notification.id)", "notification.action": "\(actionID)",
                "response.has-text": "\(text != nil)",
            ])
        eventSink.yield(
            .responded(
                SessionResponse(
                    notification: notification, action: action, actionID: actionID, text: text, token: token,
                    fromPrompt: fromPrompt)))
    }

    /// On a server that lets notifications expire without `NotificationClosed` (notification-daemon), ends the
    /// notification as expired once its timeout has passed, and asks the server to close it: otherwise it would stay
    /// outstanding for ever and be posted again, long expired, after a server restart.
    func endWhenExpired(id: String, serverID: UInt32, server: String, timeout: NotificationTimeout) {
        guard !serverInfo.reportsExpiry, let lifetime = serverInfo.lifetime(of: timeout) else { return }
        work.yield { [weak self] in
            try? await Task.sleep(for: lifetime)
            guard !Task.isCancelled else { return }
            await self?.expiredUnreported(id: id, serverID: serverID, server: server)
        }
    }

    private func expiredUnreported(id: String, serverID: UInt32, server: String) async {
        // Answered, withdrawn, replaced or posted again since: that notification has a life of its own.
        guard let notification = router.notification(id: id), notification.serverID == serverID,
            notification.serverOwner == server
        else { return }
        logger.debug("expired without word from the server", metadata: ["notification.id": "\(id)"])
        await process(ReceivedServerSignal(signal: .closed(id: serverID, reason: .expired), sender: server))
        try? client.requestClose(serverID, destination: server)
    }

    /// Asks a server that leaves notifications up after an action to close this one, unless it is resident.
    private func closeAfterAction(_ notification: PostedNotification) {
        guard !notification.content.isResident else { return }
        router.markCloseRequested(id: notification.id)
        // The server may have closed it already, which makes the call fail harmlessly: no answer is waited for.
        try? client.requestClose(notification.serverID, destination: notification.serverOwner)
    }

    /// Opens the prompt for a text-input action; the user may take minutes, so it does not hold up other signals.
    private func askForText(_ notification: PostedNotification, _ action: NotificationAction, token: String?) {
        let request = TextPromptRequest(notification: notification, action: action)
        let prompt = self.prompt
        openPrompts[notification.id, default: 0] += 1
        work.yield { [weak self] in
            let text: String?
            do { text = try await prompt.typedText(for: request) } catch { return }  // the task was cancelled
            await self?.promptReturned(notification, action, text: text, token: token)
        }
    }

    /// Reports the text typed in the prompt; a prompt that returned none ends the action without a response (a
    /// category that reports dismissals gets its `dismiss`).
    private func promptReturned(
        _ notification: PostedNotification, _ action: NotificationAction, text: String?, token: String?
    ) {
        openPrompts[notification.id, default: 1] -= 1
        if openPrompts[notification.id] == 0 { openPrompts[notification.id] = nil }
        if let text {
            respond(notification, action, actionID: action.id, text: text, token: token, fromPrompt: true)
            return
        }
        logger.debug("prompt ended without text", metadata: ["notification.id": "\(notification.id)"])
        if notification.category?.reportsDismissal == true {
            respond(notification, nil, actionID: NotificationResponse.dismissActionID, fromPrompt: true)
        }
        eventSink.yield(
            .promptEnded(
                SessionPromptEnd(notification: notification, isClosed: router.notification(id: notification.id) == nil)
            ))
    }
}
