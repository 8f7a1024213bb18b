import FoundationEssentials
import NotificationBridge
import NotificationModel
import NotificationStore

/// Flood control (``FloodControl``), the stage of the delivery path after the gate: an app that posts more than its
/// limit within the window (each thread of it counted apart) has the excess folded into one notification of the
/// daemon's own that counts them, "Mail: 37 more", brought up to date in place as more come (``FloodFolds``).
///
/// A folded post is delivered all the same: listed by `ListDelivered`, its route kept on disk, waiting behind the fold
/// as a thread's earlier notifications wait behind its newest. When the fold leaves the screen, what it stood for ends
/// with it and goes into the history: a click on it ("Keep in history") or its expiry ends them unanswered, where
/// `notification-bridge act` (or `Act`) still answers each; the user dismissing it, or "Dismiss all", dismisses them.
/// It counts the posts still waiting behind it: one its app withdraws leaves it, and the last takes it off the screen.
extension DaemonCore {
    /// What flood control decides for `delivery`, under its app's limit: only what its app posts now is counted (a
    /// `Post`, a firing), and not a post that updates one already delivered, which adds nothing to the screen.
    func floodDecision(_ delivery: Delivery) -> (FloodControl.Decision, FloodControl.Source?) {
        guard !delivery.floodLimit.isOff, delivery.origin.isCountedAgainstFlood, table[delivery.id]?.isDelivered != true
        else { return (.show, nil) }
        let source = FloodControl.Source(app: settingsApp(of: delivery.posted), thread: delivery.posted.threadID)
        return (flood.admit(source, at: Date(), limit: delivery.floodLimit), source)
    }

    /// Folds `delivery`, which its origin took in: it waits behind its source's fold, kept on disk as delivered, and
    /// the fold shows the new count. The origin learns that it is delivered once that is on disk.
    func fold(
        _ delivery: Delivery, count: Int, of source: FloodControl.Source, admission: DeliveryAdmission
    ) async -> DeliveryOutcome {
        let id = delivery.id
        apply(.stacked, to: id, deferringStoreChanges: true)
        let commit = keepStacked(id)
        let appName = table[id]?.appName ?? defaultAppName
        // As the settings shaped it: the newest's title is what a private lock screen would not show either.
        let (foldID, queuesUpdate) = floodFolds.fold(id, of: source, appName: appName, newest: delivery.content)
        logger.debug(
            "folded into a flood's notification",
            metadata: ["notification.id": "\(id)", "flood.fold": "\(foldID)", "flood.count": "\(count)"])
        if queuesUpdate { jobs.yield { [weak self] in await self?.showFold(foldID) } }
        await admission.answered(.success(commit), true)
        return .sent
    }

    /// Takes folded post `id` out of its fold as it is withdrawn: the fold shows the new count, or leaves the screen
    /// with the last one.
    func leaveFoldOnWithdrawal(_ id: String) {
        switch floodFolds.leave(id) {
        case nil:
            return
        case .counted(let foldID, let queuesUpdate):
            if queuesUpdate { jobs.yield { [weak self] in await self?.showFold(foldID) } }
        case .emptied(let foldID, let source):
            flood.foldEnded(source)
            let turn = session.reserveTurn(for: foldID)
            jobs.yield { [session] in _ = await session.withdraw(id: foldID, turn: turn) }
        }
    }

    /// Shows fold `foldID` with its latest count, or brings it up to date in place.
    private func showFold(_ foldID: String) async {
        guard let content = floodFolds.takeUpdate(of: foldID) else { return }
        let turn = session.reserveTurn(for: foldID)
        do {
            try await session.post(content, category: nil, id: foldID, turn: turn)
        } catch {
            logger.warning(
                "cannot show the notification that counts a flood; the folded ones stay listed by ListDelivered",
                metadata: ["flood.fold": "\(foldID)", "error": "\(error)"])
        }
    }

    /// The user answered fold `foldID` with `actionID`: a click keeps what it stood for in the history, "Dismiss all"
    /// dismisses them; either way the fold leaves the screen. Nothing for a fold no longer on the screen.
    func foldAnswered(_ foldID: String, actionID: String) {
        guard let fold = floodFolds.remove(foldID) else { return }
        let dismissed = actionID == FloodFolds.Action.dismissAll.rawValue
        endFolded(in: fold, .closedByCall, dismissed: dismissed)
        let turn = session.reserveTurn(for: foldID)
        jobs.yield { [session] in _ = await session.withdraw(id: foldID, turn: turn) }
    }

    /// Fold `foldID` left the server (`closure`): what it stood for ends with it, as a thread ends with the one shown.
    func foldClosed(_ foldID: String, _ closure: SessionClosure) {
        guard let fold = floodFolds.remove(foldID) else { return }
        endFolded(in: fold, closure.reason, dismissed: closure.dismissed)
    }

    /// Ends the posts waiting behind `fold`, which left the screen for `reason`, as a thread's earlier ones end with the
    /// one shown: into the history, as dismissed or not.
    private func endFolded(in fold: FloodFolds.Fold, _ reason: NotificationCloseReason, dismissed: Bool) {
        flood.foldEnded(fold.source)
        for member in fold.members { apply(.threadClosed(reason, dismissed: dismissed), to: member) }
        logger.info(
            "a flood's notification left the screen; what it stood for is in the history",
            metadata: [
                "flood.fold": "\(fold.id)", "count": "\(fold.members.count)", "flood.dismissed": "\(dismissed)",
            ])
    }
}
