import NotificationBridge
import NotificationScheduling
import NotificationStore

/// The digest of a focus mode that ended (``FocusDigest``): when it held more than a few notifications that nothing
/// holds back any more, one notification of the daemon's own counts them by app and thread instead of each being
/// shown. They stay held, listed by `ListPending`, until the user answers the digest: "Show all" shows them in the
/// order they came, as the desktop's switch turning off does; "Keep in history" ends them unanswered, in the history,
/// where they can still be answered; "Dismiss all" ends them as dismissed. Its actions come back through the session's
/// events like those of any notification (``handle(_:)``).
extension DaemonCore {
    /// Whether the digest of the mode that ended stands for the held notifications the gate now lets through: there
    /// are more than ``FocusDigest/releasedOneByOne``. Then it is shown, or its counts brought up to date in place.
    /// Otherwise the mode is forgotten, and its caller shows them one by one.
    func showsDigest() -> Bool {
        guard let mode = focus.digestMode else { return false }
        let held = digestedHeld()
        guard held.count > FocusDigest.releasedOneByOne,
            let digest = FocusDigest(mode: mode, held: held.map(\.counted))
        else {
            keepDigest(of: nil)
            return false
        }
        let (session, logger) = (session, logger)
        let turn = session.reserveTurn(for: FocusDigest.notificationID)
        // Shown once the store says they wait for it: a crash after it showed does not bring them one by one.
        let saved = keepDigest(of: mode)
        jobs.yield {
            do {
                try await saved?.wait()
                try await session.post(digest.content, category: nil, id: FocusDigest.notificationID, turn: turn)
            } catch {
                logger.warning(
                    "cannot show the digest of a focus mode; what it held stays listed by ListPending",
                    metadata: ["focus.mode": "\(mode)", "error": "\(error)"])
            }
        }
        logger.info(
            "focus: one digest stands for what the mode held",
            metadata: ["focus.mode": "\(mode)", "count": "\(held.count)"])
        return true
    }

    /// The user answered the digest with `actionID`: its held notifications are shown, sent to the history or
    /// dismissed, and the digest leaves the screen.
    func digestAnswered(_ actionID: String) {
        guard let action = FocusDigest.Action(actionID: actionID), let mode = focus.digestMode else { return }
        let held = digestedHeld()
        keepDigest(of: nil)
        let session = self.session
        let turn = session.reserveTurn(for: FocusDigest.notificationID)
        jobs.yield { _ = await session.withdraw(id: FocusDigest.notificationID, turn: turn) }
        logger.info(
            "focus: the digest was answered",
            metadata: ["focus.mode": "\(mode)", "focus.digest-action": "\(action.rawValue)", "count": "\(held.count)"])
        switch action {
        case .showAll:
            releaseHeld()
        case .history, .dismiss:
            for (id, firing, _) in held {
                // Its firing is over, in the store too: a restart does not hold it again.
                recordFired(firing)
                apply(.digestEnded(dismissed: action == .dismiss), to: id)
            }
        }
    }

    /// The key of the row that keeps the mode whose digest stands for the held notifications.
    static let digestRowID = "digest"

    /// Makes the held notifications wait for the digest of `mode` (none when `nil`), kept in the store with them, so
    /// that after a restart (a crash too) those held again wait for it again. Those that come due again after the
    /// desktop's switch was read are shown one by one, as the gate lets them through: listed and shown once either
    /// way. Returns the commit that keeps it.
    @discardableResult
    private func keepDigest(of mode: String?) -> DurableCommits.Commit? {
        focus.digestMode = mode
        do {
            return commits.submit([.saveFocus(try FocusRow(id: Self.digestRowID, SavedDigest(mode: mode)))])
        } catch {
            logger.warning(
                "cannot keep the digest of a focus mode; after a restart what it held is shown one by one",
                metadata: ["error": "\(error)"])
            return nil
        }
    }

    /// Takes back the mode whose digest stood for the held notifications when the last run ended.
    func restoreDigest() async {
        do {
            focus.digestMode = try await commits.storedFocus(SavedDigest.self, id: Self.digestRowID)?.mode
        } catch {
            logger.warning(
                "the digest of a focus mode cannot be read; what it held is shown one by one",
                metadata: ["error": "\(error)", "state.directory": "\(commits.directory)"])
        }
    }

    /// The held notifications the gate lets through now, with how the digest counts each.
    private func digestedHeld() -> [(id: String, firing: ScheduledFiring<ScheduledPost>, counted: FocusDigest.Held)] {
        table.live.compactMap { id, entry in
            guard case .held(let firing, _) = entry.phase else { return nil }
            let content = firing.notification.payload.content
            guard !holdsBackFiring(content) else { return nil }
            return (id, firing, FocusDigest.Held(app: entry.appName, threadLabel: content.summaryArgument))
        }
    }
}

/// The digest's row in the store.
private struct SavedDigest: Codable {
    /// The mode that ended, `nil` when no digest stands for the held ones.
    var mode: String?
}
