import DBusCore
import FoundationEssentials
import NotificationBridgeAPI
import NotificationModel
import NotificationScheduling
import NotificationStore

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

    /// Asks again which mode is on at `now`; when that changed, says so in the log and to apps (`ActiveFocus`), and
    /// shows what no mode holds back any more.
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
        reportedFocus.withLock { $0 = active.map(\.reported) ?? .none }
        connection.emitPropertiesChanged(
            path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName, changed: [BridgeProperty.activeFocus.name])
        if let before {
            // What it held arrives as one digest, not as a flood (``releaseHeld()``).
            focus.digestMode = before.mode.name
            releaseHeld()
        }
        return true
    }

    /// The key of the focus modes' row in the store.
    static let focusRowID = "state"

    /// Takes back what was said by hand as the last run saved it, so that a mode turned on "for 1h" is still on after a
    /// restart within that hour, and the modes as the settings file defines them (``adoptFocusFile()``); then asks
    /// which mode is on now. A saved state that cannot be read is reported, and no mode is on by hand.
    func restoreFocus() async {
        do {
            if let saved = try await commits.storedFocus(FocusState.self, id: Self.focusRowID) { focus.state = saved }
        } catch {
            logger.error(
                "the saved focus modes cannot be read; no focus mode is on until one is turned on again",
                metadata: ["error": "\(error)", "state.directory": "\(commits.directory)"])
        }
        await adoptFocusFile()
        await restoreDigest()
        await focusChangedNow()
    }

    /// The instant focus modes are asked about and the zone their schedules are read in: the scheduler's clock and
    /// zone, as for every scheduled notification, so that a mode's end and a notification due then agree, and a test's
    /// manual clock drives both.
    func focusInstant() async -> (now: Date, evaluator: TriggerEvaluator) {
        (scheduler.clock.now, TriggerEvaluator(timeZone: await scheduler.timeZone))
    }

    /// Asks which mode is on now, by the scheduler's clock, as ``focusChanged(at:in:)`` does.
    func focusChangedNow() async {
        let (now, evaluator) = await focusInstant()
        focusChanged(at: now, in: evaluator)
    }

    /// Asks which mode is on now, as ``focusChanged(at:in:)`` does.
    ///
    /// - Returns: when to ask again, on the scheduler's clock: just after the next instant that may change it, and
    ///   no later than `longest` from now.
    func reevaluateFocus(waitingAtMost longest: TimeInterval) async -> Date {
        let (now, evaluator) = await focusInstant()
        focusChanged(at: now, in: evaluator)
        let latest = now.addingTimeInterval(longest)
        guard let next = focus.state.nextChange(after: now, in: evaluator) else { return latest }
        // Just after it, so that the instant asked about is not before the change.
        return min(latest, next.addingTimeInterval(0.01))
    }
}

extension FocusState.Active {
    /// As the `ActiveFocus` property reports it.
    var reported: ActiveFocusState {
        ActiveFocusState(
            name: mode.name, cause: cause.rawValue, until: until.map { Int64($0.timeIntervalSince1970.rounded(.up)) })
    }
}
