/// The reference text of each method, as `gdbus introspect` and the interface XML show it: a few sentences, then the
/// keys the method takes or returns. Short tables are listed by name from the key tables, so that the text cannot
/// fall behind what a method takes; long ones are named by their section of notification-bridge-dbus(7), which
/// describes every key. Each text stays within ``InterfaceReference/docStringLimit``.
extension BridgeMethod {
    /// What the method does and takes, in a few sentences.
    ///
    /// - Parameter limits: the daemon's limits the text states.
    public func documentation(_ limits: BridgeInterfaceLimits) -> String {
        switch self {
        case .registerCategory:
            "Registers or replaces a category. Action keys: " + InterfaceReference.manual("ACTION KEYS")
                + ". Options: " + InterfaceReference.names(CategoryOptionKeys.all) + "."
        case .removeCategory:
            "Removes a category; notifications showing keep their actions. Refused with InvalidArgument, naming them, "
                + "while scheduled notifications use it: withdraw those first."
        case .listCategories:
            "The registered categories (a sandboxed app's own only). Keys: "
                + InterfaceReference.names(CategoryKeys.all)
                + "."
        case .post:
            "Shows a notification, or schedules it (fire-date, in, calendar), and returns its id. Responses go to exec "
                + "or app-action, else to the posting connection. Scheduled ones survive a restart; an app may have "
                + "\(limits.scheduledPerApp) waiting (then Error.LimitExceeded). Keys: "
                + InterfaceReference.manual("NOTIFICATION KEYS") + ", CALENDAR KEYS and ACTION KEYS."
        case .withdraw:
            "Closes a notification, or cancels a scheduled one; a WaitForResponse for it fails with Error.Closed."
        case .withdrawAll:
            "Closes the notifications the filter selects, cancels the scheduled ones it selects, and returns their "
                + "ids. Filter keys: " + InterfaceReference.names(FilterKeys.all) + "."
        case .listPending:
            "Scheduled notifications the filter selects, earliest first, then those do-not-disturb holds back, with "
                + "the keys Post took and " + InterfaceReference.names(ListedKeys.pending)
                + " (held true for those held back). Filter keys as in WithdrawAll."
        case .listDelivered:
            "Delivered notifications the filter selects, with the keys Post took and "
                + InterfaceReference.names(ListedKeys.delivered) + ". on-screen is false for one of a thread that "
                + "waits behind the thread's newest on a server that does not group notifications. Filter keys as in "
                + "WithdrawAll."
        case .waitForResponse:
            "Returns when the user responds, at once for an earlier response; fails with Error.Closed when the "
                + "notification closes without one, Error.Expired when it ended too long ago (the last "
                + "\(limits.keptEnded) ended are kept). Response keys: " + InterfaceReference.names(ResponseKeys.all)
                + "."
        case .attach:
            "Says that this connection is the running app app_name, until Detach or it leaves the bus; the latest "
                + "attached connection counts. Responses whose poster has gone come to it as Responded. Options: "
                + InterfaceReference.names(AttachOptionKeys.all) + "."
        case .detach:
            "Ends Attach for app_name on this connection."
        case .present:
            "Shows a scheduled notification handed to this app with Fired; or shows again, with live actions, one of "
                + "the history that the caller can answer with Act (answerable in ListHistory), its responses going "
                + "where they went."
        case .getSettings:
            "The user's notification settings for app_id (its desktop id or app name); an empty app_id: only "
                + "do-not-disturb and source. Keys: " + InterfaceReference.manual("SETTINGS KEYS") + "."
        case .setSettings:
            "Changes the keys given of an app's settings (as GetSettings returns them, but app and source); "
                + "do-not-disturb is global, the only key taken with an empty app_id. An app sets only requested for "
                + "itself. Under GNOME, GNOME's own keys are written to its settings."
        case .listSettings:
            "The settings of every app that has posted or has settings, by app, with the key app-id added."
        case .listHistory:
            "Notifications shown and ended, newest first, as long as the daemon keeps them (--history-days, "
                + "--history-limit): the keys Post took, the actions offered, and the history keys ("
                + InterfaceReference.manual("HISTORY KEYS") + "). Typed text is never kept. Filter keys as in "
                + "WithdrawAll."
        case .act:
            "Answers a notification of the history that is answerable (ListHistory: the same check), as a click on "
                + "action would, once the session is unlocked if the action asks for it. Refused with "
                + "Error.NotAnswerable, saying why, or Error.NotSupported when its poster has gone and no app is "
                + "attached to take the response. Options: " + InterfaceReference.names(ActOptionKeys.all) + "."
        case .turnOnFocus:
            "Turns on the focus mode name (made if there is none; apps or threads given replace its rules, written to "
                + "settings.ini): notifications it does not let through are held (ListPending: held) until it ends; "
                + "critical and allowed time-sensitive ones pass. Kept across restarts; ActiveFocus says it is on. "
                + "Host programs only (else Error.AccessDenied). Options: "
                + InterfaceReference.names(FocusOptionKeys.all) + "."
        case .turnOffFocus:
            "Turns off the focus mode that is on and shows what it held, as one digest that counts them when there "
                + "are more than three; one a schedule turned on stays off until its period ends. Host programs only "
                + "(else Error.AccessDenied)."
        case .setFocusSchedules:
            "Sets when the focus mode name turns itself on (made if there is none of that name), replacing its "
                + "schedules; none: only by hand. Each is written DAYS HH:MM-HH:MM in the user's time zone, such as "
                + "mon-fri 22:00-07:00 (an end before the start is on the next day). Kept across restarts. Host "
                + "programs only (else Error.AccessDenied)."
        case .listFocusModes:
            "The focus modes, by name, with what they let through and their schedules. Keys: "
                + InterfaceReference.names(FocusModeKeys.all) + ". Host programs only (else Error.AccessDenied)."
        case .getServerInformation:
            "The notification server the daemon posts to, and the bridge's choices on it. Keys: "
                + InterfaceReference.manual("SERVER INFORMATION KEYS") + "."
        }
    }
}

/// The daemon's limits that the interface's reference text states.
public struct BridgeInterfaceLimits: Sendable, Hashable {
    /// How many scheduled notifications one app may have waiting.
    public var scheduledPerApp: Int
    /// How many ended notifications the daemon remembers, with their responses, for `WaitForResponse`.
    public var keptEnded: Int

    /// States the limits.
    public init(scheduledPerApp: Int, keptEnded: Int) {
        self.scheduledPerApp = scheduledPerApp
        self.keptEnded = keptEnded
    }
}
