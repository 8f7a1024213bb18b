import DBusCore
import NotificationBridge
import NotificationBridgeAPI
import NotificationModel

/// Why a delivery stopped before the server.
enum DeliveryStop: Error {
    /// Validation, the user's settings or its origin refused it: the failure says why and what to do.
    case refused(DBusFailure)
    /// The do-not-disturb gate holds it back: its origin holds it (or drops it, as its post asks).
    case heldBack

    /// What a `Present` of `id` answers when its delivery stopped: the refusal, or, where the gate held back what the
    /// app or the user asked to show, what to do.
    func presentFailure(of id: String) -> DBusFailure {
        switch self {
        case .refused(let failure): failure
        case .heldBack:
            BridgeError.invalid(
                "notification \(quotedForMessage(id)) is held back by do-not-disturb; present it again once "
                    + "do-not-disturb is off")
        }
    }
}

/// What a delivery came to when it did not stop.
enum DeliveryOutcome: Sendable {
    /// It went to the session, which shows it (or flood control folded it into the notification that counts its app's
    /// flood); the origin's ``DeliveryAdmission/answered`` learns the server's answer.
    case sent
    /// It replaced an earlier notification of a thread, which stays behind the newest: the newest shows the thread's
    /// new count, and nothing else goes to the server. The commit keeps it on disk as it waits.
    case behindNewest(DurableCommits.Commit?)
}

/// What an origin says once its delivery passed the gate and it took the delivery in (its entry now waits for the
/// server's answer).
struct DeliveryAdmission: Sendable {
    /// The notification this one replaced, put back if the server refuses this one.
    var replaced: TrackedNotification?
    /// Learns the server's answer (with the commit that saved the route, when it must survive a restart), and whether
    /// the entry was still waiting for it.
    var answered: @Sendable (Result<DurableCommits.Commit?, DBusFailure>, _ wasOut: Bool) async -> Void = { _, _ in }

    /// Answers `call` with the server's answer: a `Present` returns once the server shows what it presented.
    static func answering(_ call: DBusMethodCall) -> DeliveryAdmission {
        DeliveryAdmission { result, _ in
            switch result {
            case .success: call.reply([])
            case .failure(let failure): call.fail(failure)
            }
        }
    }
}

/// The turns on the session an origin reserved before its delivery could run: in the order of the calls, for one
/// that must run as a job (a thread's earlier notification brought back, a thread's count refreshed).
struct ReservedTurns: Sendable {
    /// The delivery's own.
    var own: NotificationServerSession.Turn
    /// The notification whose place it takes, with the turn on it.
    var inPlaceOf: (id: String, turn: NotificationServerSession.Turn)?
}

/// The one way to the server. Every origin (``Delivery/Origin``) builds a ``Delivery`` and passes it here, through the
/// same stages in the same order: validation, the user's settings with the snooze buttons, the do-not-disturb gate,
/// flood control, thread placement, the session. A stage added here applies to every origin; what differs by origin is
/// data the stage reads (``Delivery/Origin/isOnScreen``, ``Delivery/Origin/isAskedFor``,
/// ``Delivery/Origin/isCountedAgainstFlood``), never a second path.
extension DaemonCore {
    /// Takes `delivery` through the stages to the server.
    ///
    /// - Parameters:
    ///   - turns: the session turns its origin reserved already; reserved here, after thread placement, when `nil`.
    ///   - admitted: the origin takes the delivery in once it passed the gate (a `Post` replaces the entry, a `Present`
    ///     sends the one handed to the app), before it joins its thread; it may refuse it still (an answer that came
    ///     meanwhile).
    /// - Throws: ``DeliveryStop``: refused, or held back by the gate.
    @discardableResult
    func deliver(
        _ delivery: Delivery, turns: ReservedTurns? = nil,
        admitted: () async throws(DBusFailure) -> DeliveryAdmission = { DeliveryAdmission() }
    ) async throws(DeliveryStop) -> DeliveryOutcome {
        var delivery = delivery
        try validate(&delivery)
        try await applySettings(&delivery)
        delivery.pass(.gate)
        if await gateHolds(delivery) { throw .heldBack }
        delivery.pass(.flood)
        let (flooding, source) = floodDecision(delivery)
        delivery.pass(.thread)
        if let key = staysBehindNewest(delivery) {
            // A thread's earlier notification replaced: it stays where it waits, and the thread counts it anew.
            table.update(delivery.id) { $0.content = delivery.posted }
            let commit = keepStacked(delivery.id)
            refreshThread(key)
            return .behindNewest(commit)
        }
        let admission: DeliveryAdmission
        do {
            admission = try await admitted()
        } catch {
            throw .refused(error)
        }
        if case .fold(let count) = flooding, let source {
            return await fold(delivery, count: count, of: source, admission: admission)
        }
        let inPlaceOf = placeInThread(&delivery)
        delivery.pass(.session)
        logger.debug(
            "delivering",
            metadata: [
                "notification.id": "\(delivery.id)", "delivery.origin": "\(delivery.origin.rawValue)",
                "delivery.stages": "\(delivery.passed.map(\.name).joined(separator: ","))",
                "delivery.snooze-buttons": "\(delivery.content.snoozeIntervals?.count ?? 0)",
            ])
        await send(delivery, inPlaceOf: inPlaceOf, turns: turns, admission: admission)
        return .sent
    }

    /// Takes a delivery of a notification on the screen (a thread's earlier one brought back, a thread's count
    /// refreshed) through the stages, as a job whose turns its origin reserved in the order of the calls; nothing
    /// refuses or holds back what is on the screen already. A failed `Notify` is logged with `failure`.
    func deliverOnScreen(_ delivery: Delivery, turns: ReservedTurns, failure note: String) async {
        let (id, logger) = (delivery.id, self.logger)
        _ = try? await deliver(delivery, turns: turns) {
            DeliveryAdmission { result, _ in
                guard case .failure(let failure) = result else { return }
                logger.notice("\(note)", metadata: ["notification.id": "\(id)", "error": "\(failure.message)"])
            }
        }
    }

    // MARK: Stages

    /// Validation: the content is valid and its category registered. A `Post` that is not is refused; a notification
    /// that comes back later whose category was removed meanwhile (or not registered again after a restart) is shown
    /// without the category's actions rather than lost; one on the screen passed when it was posted.
    private func validate(_ delivery: inout Delivery) throws(DeliveryStop) {
        delivery.pass(.validation)
        guard !delivery.origin.isOnScreen else { return }
        if delivery.origin != .post, let missing = delivery.content.categoryID, delivery.category == nil {
            logger.warning(
                "a notification's category is not registered; it is shown without the category's actions",
                metadata: ["notification.id": "\(delivery.id)", "category.id": "\(missing)"])
            delivery.content.categoryID = nil
        }
        let registered = categories
        do throws(NotificationValidationError) {
            try delivery.content.validate(isCategoryRegistered: { registered[$0] != nil })
        } catch {
            throw .refused(error.bridgeFailure)
        }
    }

    /// The user's settings for the app, with the snooze buttons it offers (``allowedBySettings(_:category:repeats:)``).
    /// A notification on the screen already that they would now keep off it stays as it was, with the snooze buttons
    /// the settings allow.
    private func applySettings(_ delivery: inout Delivery) async throws(DeliveryStop) {
        delivery.pass(.settings)
        do {
            (delivery.content, delivery.floodLimit) = try await allowedBySettings(
                delivery.content, category: delivery.category, repeats: delivery.repeats)
        } catch {
            guard delivery.origin.isOnScreen else { throw .refused(error) }
            delivery.content = await offeringSnoozeAllowed(delivery.content, category: delivery.category)
        }
    }

    /// The do-not-disturb gate: whether the desktop's switch or the focus mode on holds `delivery` back. One predicate
    /// for every origin: what is on the screen already, or asked for now, passes; a `Post` is judged with the switch
    /// read again (``holdsBackPost(_:replacing:)``), a notification that came due as the switch was last read
    /// (``holdsBackFiring(_:)``).
    func gateHolds(_ delivery: Delivery) async -> Bool {
        if delivery.origin.isOnScreen || delivery.origin.isAskedFor { return false }
        if delivery.origin == .post { return await holdsBackPost(delivery.posted, replacing: table[delivery.id]) }
        return holdsBackFiring(delivery.posted)
    }

    /// The thread of a `Post` that replaces one of its thread's earlier notifications, which waits behind the newest
    /// (and is not scheduled too): it stays there.
    private func staysBehindNewest(_ delivery: Delivery) -> ThreadBook.Key? {
        guard let entry = table[delivery.id], entry.isStacked, !entry.isScheduled else { return nil }
        return threads.key(of: delivery.id)
    }

    /// Thread placement: a notification new to the server joins its thread as its newest and takes the place of the
    /// one shown (``placeInThread(_:content:category:)``); one on the screen keeps its place. Either carries the
    /// thread's summary. Returns the notification whose place it takes.
    private func placeInThread(_ delivery: inout Delivery) -> String? {
        if delivery.origin.isOnScreen {
            if let key = threads.key(of: delivery.id) {
                delivery.content = summarized(delivery.content, in: key, category: delivery.category)
            }
            return delivery.inPlaceOf
        }
        let placement = placeInThread(delivery.id, content: delivery.content, category: delivery.category)
        delivery.content = placement.content
        return delivery.inPlaceOf ?? placement.inPlaceOf
    }

    /// The session: the delivery goes to the server as its ``Delivery/sending`` says.
    private func send(
        _ delivery: Delivery, inPlaceOf: String?, turns: ReservedTurns?, admission: DeliveryAdmission
    ) async {
        let (id, content, category) = (delivery.id, delivery.content, delivery.category)
        let session = self.session
        switch delivery.sending {
        case .notify:
            // Reserved now, in the order of the calls: a withdrawal or replacement asked while this Notify is out acts
            // on the id the server gives it; taking another's place waits for that one's Notify too.
            let other = turns?.inPlaceOf ?? inPlaceOf.map { ($0, session.reserveTurn(for: $0)) }
            let turn = turns?.own ?? session.reserveTurn(for: id)
            let (badges, hints, replaced) = (self.badges, delivery.hints, admission.replaced)
            let answered = admission.answered
            jobs.yield { [weak self] in
                let result: Result<(serverID: UInt32, server: String?), any Error>
                do {
                    let placed = try await session.post(
                        content, category: category, id: id, hints: hints, turn: turn, inPlaceOf: other)
                    result = .success((placed.serverID, placed.server))
                    if let badge = content.badge, let entry = content.desktopEntry {
                        try? badges.setBadge(badge, desktopEntry: entry)
                    }
                } catch {
                    result = .failure(error)
                }
                guard let self else { return }
                let (answer, wasOut) = await self.notifyAnswered(
                    id, result: result, previous: replaced, inPlaceOf: other?.id)
                await answered(answer, wasOut)
            }
        case .inPlace:
            let turn = turns?.own ?? session.reserveTurn(for: id)
            let logger = self.logger
            jobs.yield {
                do {
                    // Only while it is on the server still: the user may have closed it meanwhile.
                    try await session.refresh(content, category: category, id: id, turn: turn)
                } catch {
                    logger.debug(
                        "cannot update the summary of a thread",
                        metadata: ["notification.id": "\(id)", "error": "\(error)"])
                }
            }
        case .takingOver(let kept):
            await session.adopt(id: id, serverID: kept.serverID, content: content, category: category)
            await takeOver(id, kept, showing: content)
        }
    }
}
