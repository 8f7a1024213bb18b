import DBusCore
import FoundationEssentials
import NotificationBridgeAPI
import NotificationModel
import NotificationStore

/// Acting later: a notification of the history that ended without a response, and without the user or its app putting
/// it away, is answered with `Act` as a click would have answered it, or shown again with `Present`.
extension DaemonCore {
    /// `Act(s id, s action, a{sv} options)`: routes the response as a click on `action` would have, through the same
    /// lock gate, once its history entry says it was answered (so that it is answered once).
    func act(id: String, action actionID: String, options: DBusValue, call: DBusMethodCall) async throws(DBusFailure) {
        try checkRunning()
        try NotificationID.check(id)
        let text = try VariantDictionary(options, place: "options", keys: ActOptionKeys.all)
            .decode(ActOptionKeys.text)
        let peer = await peer(of: call.sender)
        guard let ended = try await storedEnded(id) else { throw Self.notInHistory(id) }
        let posterIsConnected = await posterIsConnected(ended)
        // From here to the answer recorded below nothing waits: the check holds, and the entry takes one answer.
        if let refusal = answerRefusal(ended, by: peer, posterIsConnected: posterIsConnected) { throw refusal }
        guard let offered = ended.action(actionID) else {
            let ids = ended.actions.map { quotedForMessage($0.id) } + ["'\(NotificationResponse.defaultActionID)'"]
            throw BridgeError.invalid(
                "notification \(quotedForMessage(id)) offers no action \(quotedForMessage(actionID)); use one of "
                    + ids.joined(separator: ", ") + " (ListHistory lists its actions)")
        }
        if let action = offered, case .textInput = action.behavior {
            guard let text, !text.isEmpty else {
                throw KeyPlace(place: "options", key: ActOptionKeys.text.name).invalid(
                    "is missing, and action \(quotedForMessage(actionID)) of notification \(quotedForMessage(id)) "
                        + "asks for typed text; give the text typed")
            }
        } else if text != nil {
            throw KeyPlace(place: "options", key: ActOptionKeys.text.name).invalid(
                "is given, but action \(quotedForMessage(actionID)) of notification \(quotedForMessage(id)) takes no "
                    + "typed text; leave it out")
        }
        var answered = ended
        answered.ending = .responded
        answered.responseAction = actionID
        let commit = commits.submit(historyChanges([answered]) ?? [])
        history.answeredLater(id)
        logger.debug(
            "answered from the history",
            metadata: [
                "notification.id": "\(id)", "notification.action": "\(actionID)",
                "notification.route": "\(ended.route.kind)", "response.has-text": "\(text != nil)",
            ])
        // As the session judges a click: a body click and any action but a background one without the flag need an
        // unlocked session.
        let requiresAuthentication = offered?.requiresAuthentication ?? true
        let response = BridgeResponse(
            notificationID: id, actionID: actionID, text: text, userInfo: ended.content.userInfo)
        let (route, appName, toPoster) = (ended.route, ended.appName, posterIsConnected)
        await lockGate.deliver(notificationID: id, requiresAuthentication: requiresAuthentication) { [weak self] in
            await self?.route(response, id: id, route, appName: appName, posterIsConnected: toPoster)
        }
        reply(call, after: commit)
    }

    /// Why `peer` cannot answer the history entry `ended` now (`Act`) nor show it again (`Present`), or `nil` when
    /// it can: the one check of both calls, and of `answerable` in `ListHistory`, so that what is listed answerable
    /// is not then refused, and what a sandboxed app may answer it may show again, and no more.
    ///
    /// Refused: another app's entry (for a sandboxed app); one whose response runs a command of the host (for a
    /// sandboxed app: a host program may have posted under its id); one answered already, put away by the user or its
    /// app, or showing again; one whose responses go to the program that posted it, which has left the bus
    /// (`posterIsConnected`), while no app is attached as its app to take them.
    func answerRefusal(_ ended: EndedPost, by peer: Peer, posterIsConnected: Bool) -> DBusFailure? {
        let id = quotedForMessage(ended.id)
        if let confined = peer.confinedAppID, ended.appName != confined {
            return Self.denied(
                peer, "cannot answer or show again notification \(id) of another app",
                instead: "act only on notifications posted under its own app id")
        }
        if peer.isSandboxed, case .command = ended.route {
            return Self.denied(
                peer, "cannot answer or show again notification \(id), whose response runs a command of the host",
                instead: "the user may answer it from the host (notification-bridge act)")
        }
        if history.wasAnsweredLater(ended.id) {
            return BridgeError.notAnswerable.failure(
                "notification \(id) \(NotificationEnding.responded.refusal ?? "")")
        }
        if let refusal = ended.ending.refusal {
            return BridgeError.notAnswerable.failure("notification \(id) \(refusal)")
        }
        if let live = table[ended.id], live.isOnServer || live.awaitsShowing {
            return BridgeError.notAnswerable.failure(
                "notification \(id) is showing again; answer it on the screen, or withdraw it first")
        }
        if case .poster = ended.route, !posterIsConnected, attachments.current(for: ended.appName) == nil {
            return BridgeError.notSupported.failure(
                "notification \(id) sends its responses to the program that posted it, which has left the bus, and "
                    + "no running app is attached as \(quotedForMessage(ended.appName)); start the app (it attaches "
                    + "with Attach, as notification-bridge monitor does), then act again")
        }
        return nil
    }

    /// Whether the program that posted `ended` is still on the bus, for an entry whose responses go to it; `true`
    /// for any other route. `known` keeps the answers of one listing, so that each poster is asked about once.
    func posterIsConnected(_ ended: EndedPost, known: inout [String: Bool]) async -> Bool {
        guard case .poster(let poster) = ended.route else { return true }
        if let answer = known[poster] { return answer }
        let answer = (try? await connection.nameHasOwner(poster)) ?? false
        known[poster] = answer
        return answer
    }

    /// Whether the program that posted `ended` is still on the bus (see ``posterIsConnected(_:known:)``).
    func posterIsConnected(_ ended: EndedPost) async -> Bool {
        var known: [String: Bool] = [:]
        return await posterIsConnected(ended, known: &known)
    }

    /// `Present(s id)` of a history entry that can still be answered: shows it again as a new delivery, with its
    /// actions live and its responses going where they went.
    func presentAgain(_ call: DBusMethodCall, id: String) async throws(DBusFailure) {
        let peer = await peer(of: call.sender)
        guard let ended = try await storedEnded(id) else { throw Self.notInHistory(id) }
        let posterIsConnected = await posterIsConnected(ended)
        if let refusal = answerRefusal(ended, by: peer, posterIsConnected: posterIsConnected) { throw refusal }
        var content = ended.content
        let category = await category(of: content)
        if category == nil, content.actions.isEmpty, !ended.actions.isEmpty {
            // Its category was removed since: it shows the actions it offered, as its own.
            content.categoryID = nil
            content.actions = ended.actions
        } else if category == nil {
            content.categoryID = nil
        }
        let delivery = Delivery(.presentAgain, id: id, content: content, category: category)
        do {
            try await deliver(delivery) { () throws(DBusFailure) -> DeliveryAdmission in
                // The check again after the settings were read: the entry may have been answered or shown meanwhile.
                if let refusal = answerRefusal(ended, by: peer, posterIsConnected: posterIsConnected) { throw refusal }
                var entry = TrackedNotification(
                    .posted, appName: ended.appName, poster: ended.poster, route: ended.route, content: content,
                    reportsDismissal: category?.reportsDismissal ?? false)
                entry.waits = table[id]?.waits ?? []
                table[id] = entry
                logger.debug("shown again from the history", metadata: ["notification.id": "\(id)"])
                return .answering(call)
            }
        } catch {
            throw error.presentFailure(of: id)
        }
    }
}
