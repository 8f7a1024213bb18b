/// The quirks of ``NotificationServerInfo+Quirks.swift`` in words, for a user who asks why a notification shows as it
/// does (`notification-bridge doctor`).
extension NotificationServerInfo {
    /// One sentence per quirk the bridge applies to this server; empty for a server that behaves as the
    /// specification says.
    public var quirkNotes: [String] {
        var notes: [String] = []
        if let maximumButtons {
            notes.append(
                "shows at most \(maximumButtons) buttons: a category's minimal actions are used, or the last "
                    + "ones dropped")
        }
        if keepsLowUrgencyQuietly {
            notes.append("keeps low-urgency notifications in its list without a banner: passive ones are sent so")
        }
        if preselectsFirstAction {
            notes.append("preselects the first action in a list: destructive actions are put last")
        }
        if let destructiveMarker {
            notes.append(
                "shows a button whose label starts with \(destructiveMarker)as destructive: destructive actions are "
                    + "marked so")
        }
        if let displayBusName {
            notes.append(
                "shows notifications through \(displayBusName): a restart of the server alone leaves its "
                    + "notifications on screen, which the bridge posts again")
        }
        if groupsByApp {
            notes.append("groups notifications by app itself: every notification of a thread is shown on its own")
        }
        if !reportsExpiry {
            notes.append("sends no close when a notification expires: the bridge ends it itself after its timeout")
        }
        if reportsCloseButtonAsExpiry {
            notes.append("reports its close button as an expiry: an early one counts as a dismissal")
        }
        if let refusesRepeatsWithin {
            notes.append(
                "refuses a notification identical to one shown less than \(refusesRepeatsWithin) before: the bridge "
                    + "sends it again, unchanged, once that time has passed")
        }
        if sendsActivationTokenOnlyForInstalledApps {
            notes.append(
                "gives a foreground action an activation token only when the notification's desktop entry names an "
                    + "installed app: post with --desktop-entry of an installed app to let it take the focus")
        }
        if sendsNoActivationToken {
            notes.append(
                "gives a foreground action no activation token: the app raises its window without one, which a "
                    + "Wayland compositor may refuse")
        }
        if let defaultTimeout {
            notes.append("expires notifications after \(defaultTimeout) by default")
        }
        return notes
    }
}
