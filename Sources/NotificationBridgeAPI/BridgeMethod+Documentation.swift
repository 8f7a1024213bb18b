/// The reference text of each method, as `gdbus introspect` and the interface XML show it. Lists of keys come from
/// the key tables, so that the text cannot fall behind what a method takes.
extension BridgeMethod {
    /// What the method does and takes, in a few sentences.
    ///
    /// - Parameter limits: the daemon's limits the text states.
    public func documentation(_ limits: BridgeInterfaceLimits) -> String {
        switch self {
        case .registerCategory:
            "Registers or replaces a category. Action keys: " + InterfaceReference.keys(ActionKeys.all)
                + ". Options: " + InterfaceReference.keys(CategoryOptionKeys.all) + "."
        case .removeCategory:
            "Removes a category; notifications showing keep their actions. Refused with InvalidArgument, naming them, "
                + "while scheduled notifications use it: withdraw those first."
        case .listCategories:
            "The registered categories (a sandboxed app's own only). Keys: " + InterfaceReference.keys(CategoryKeys.all)
                + "."
        case .post:
            "Shows a notification, or schedules it, and returns its id. Title or body must say something; category "
                + "and actions exclude each other. Responses go to exec or app-action, else to the posting connection. "
                + "Without a scheduling key (fire-date, in, calendar) it is shown at once. Scheduled notifications "
                + "survive a restart; one missed while the daemon was stopped is shown once when it starts. An app "
                + "may have \(limits.scheduledPerApp) scheduled notifications waiting; beyond, Error.LimitExceeded "
                + "(withdraw some). A sandboxed app posts as its own app id, without exec (Error.AccessDenied). Keys: "
                + InterfaceReference.keys(PostKeys.all) + ". Calendar keys: "
                + InterfaceReference.keys(CalendarKeys.all)
                + ". Action keys as in RegisterCategory."
        case .withdraw:
            "Closes a notification, or cancels a scheduled one; a WaitForResponse for it fails with Error.Closed."
        case .withdrawAll:
            "Closes the notifications the filter selects, cancels the scheduled ones it selects, and returns their "
                + "ids. Filter keys: " + InterfaceReference.keys(FilterKeys.all) + "."
        case .listPending:
            "Scheduled notifications the filter selects, earliest first: the keys Post took, scheduling ones "
                + "included, and "
                + InterfaceReference.keys(
                    [ListedKeys.id.info, ListedKeys.nextFireDate.info, ListedKeys.nextFireDateISO8601.info])
                + ". Filter keys as in WithdrawAll."
        case .listDelivered:
            "Delivered notifications the filter selects: their id and the keys Post took; the earlier ones of a "
                + "thread, waiting behind its newest on a server that does not group notifications, with "
                + InterfaceReference.keys([ListedKeys.onScreen.info]) + " false."
        case .waitForResponse:
            "Returns when the user responds, at once for a response that came earlier; fails with Error.Closed when "
                + "the notification closes without one, and with Error.Expired when it ended so long ago that neither "
                + "it nor a response it had is kept (the last \(limits.keptEnded) ended are). Response keys: "
                + InterfaceReference.keys(ResponseKeys.all) + "."
        case .attach:
            "Says that this connection is the running app app_name, until it calls Detach or leaves the bus; the most "
                + "recently attached connection of an app counts. Responses to the app's notifications whose posting "
                + "connection has gone come to it as Responded. Options: "
                + InterfaceReference.keys(AttachOptionKeys.all) + "."
        case .detach:
            "Ends Attach for app_name on this connection."
        case .present:
            "Shows a scheduled notification that was handed to this app with Fired, as the notification server shows "
                + "any other; or shows again, with live actions, one of the history that the caller can answer with Act "
                + "(answerable in ListHistory: the same check), its responses going where they went."
        case .getSettings:
            "The user's notification settings for the app app_id (its desktop id, or the app name it posts under). "
                + "An empty app_id: only do-not-disturb and source. Keys: " + InterfaceReference.keys(SettingsKeys.all)
                + "."
        case .setSettings:
            "Changes the keys given of an app's settings (keys as GetSettings returns them, but app and source); "
                + "do-not-disturb is global, and the only key taken with an empty app_id. An app sets requested for "
                + "itself: what it may do is the user's choice within what it asked for. Under GNOME the keys GNOME "
                + "has are written to GNOME's settings."
        case .listSettings:
            "The settings of every app that has posted or has settings, by app, with the key app-id added."
        case .listHistory:
            "Notifications that were shown and ended, newest first, as long as the daemon keeps them (by default 7 "
                + "days and 500 entries; notification-bridged --history-days and --history-limit): the keys Post "
                + "took, the actions they offered, and "
                + InterfaceReference.keys(HistoryKeys.all) + ". Typed text is never kept. Filter keys as in "
                + "WithdrawAll."
        case .act:
            "Answers a notification of the history that ended without a response and without being dismissed or "
                + "withdrawn (answerable in ListHistory), as a click on action (or default) would: its exec command, "
                + "its app-action app, or Responded to its poster or the app attached under its name, once the "
                + "session is unlocked when the action asks for it. Refused with Error.NotAnswerable, saying why, for "
                + "one dismissed, withdrawn, replaced or answered already, and with Error.NotSupported for one whose "
                + "poster has gone with no app attached to take the response (the check that sets answerable). "
                + "Options: "
                + InterfaceReference.keys(ActOptionKeys.all) + "."
        case .getServerInformation:
            "The notification server the daemon posts to, and the bridge's choices on it. Keys: "
                + InterfaceReference.keys(ServerInformationKeys.all) + "."
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
