import FoundationEssentials
import NotificationBridgeAPI
import NotificationModel
import NotificationScheduling

/// Focus modes at the daemon's one do-not-disturb gate: a notification waits while the desktop's switch or the focus
/// mode that is on holds it back (``FocusGate``), and what waited is shown, through the same release as when the
/// desktop's switch turns off, once no mode holds it any more.
extension DaemonCore {
    /// The gate as it stands, with the desktop's switch taken as `desktopIsOn` while it has not been read.
    func focusGate(desktopUnread desktopIsOn: Bool) -> FocusGate {
        FocusGate(desktopIsOn: desktopDoNotDisturb?.isOn ?? desktopIsOn, focus: focus.active)
    }

    /// `content` as the rules of a focus mode see it, with its app's settings as last read (``readSettings(of:)``).
    func focusCandidate(_ content: NotificationContent) -> FocusBreakthrough.Candidate {
        FocusBreakthrough.Candidate(
            app: settingsApp(of: content), thread: content.threadID, level: content.levelForDoNotDisturb,
            timeSensitiveAllowed: timeSensitiveAllowed(content))
    }

    /// Asks again which mode is on at `now`; when that changed, says so in the log and shows what no mode holds back
    /// any more.
    ///
    /// - Returns: whether the mode on changed.
    @discardableResult
    func focusChanged(at now: Date, in evaluator: TriggerEvaluator) -> Bool {
        let active = focus.state.active(at: now, in: evaluator)
        guard active != focus.active else { return false }
        let before = focus.active
        focus.active = active
        logger.info(
            "focus: \(active.map { "\(quotedForMessage($0.mode.name)) is on" } ?? "no mode is on")",
            metadata: ["focus.cause": "\(active?.cause.rawValue ?? "none")"])
        if before != nil { releaseHeld() }
        return true
    }
}
