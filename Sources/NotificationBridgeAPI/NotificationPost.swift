import DBusCore
import NotificationModel

/// A `Post(a{sv} notification)`: what to show, where responses go, what it replaces, when it fires, and server hints
/// of the caller's own. Keys in ``PostKeys``.
public struct NotificationPost: Sendable, Hashable {
    /// What to show. An `appName` of `nil` means the daemon's default app name.
    public var content: NotificationContent
    /// Where responses go; `nil` for the posting connection.
    public var route: PostRoute?
    /// The id of a delivered notification of the same app (showing, or an earlier one of its thread) to update in
    /// place.
    public var replaces: String?
    /// An id of the caller's choosing (``PostKeys/fixedID``): shown under it, or updating the notification of the same
    /// app showing with it.
    public var fixedID: String?
    /// When it fires; `nil` for now.
    public var schedule: PostSchedule?
    /// Server hints of the caller's own, sent after the bridge's.
    public var hints: [String: DBusValue]
    /// What happens to it while the desktop's do-not-disturb holds it back; `nil` for the default, ``DoNotDisturbChoice/hold``.
    public var ifDoNotDisturb: DoNotDisturbChoice?

    /// Describes a post.
    public init(
        content: NotificationContent, route: PostRoute? = nil, replaces: String? = nil, schedule: PostSchedule? = nil,
        hints: [String: DBusValue] = [:]
    ) {
        self.content = content
        self.route = route
        self.replaces = replaces
        self.schedule = schedule
        self.hints = hints
    }

    /// The dictionary `Post` takes: the content's keys, and those of the route, the replacement, the schedule and the
    /// hints that are set.
    public var entries: WireEntries {
        var entries = ContentEntries.entries(of: content)
        switch route {
        case .command(let argv)?: entries[PostKeys.exec] = argv
        case .application(let action)?: entries[PostKeys.appAction] = action.map(AppActionChoice.named) ?? .actionIDs
        case nil: break
        }
        entries[PostKeys.replaces] = replaces
        entries[PostKeys.fixedID] = fixedID
        if let schedule { entries.merge(schedule.entries) }
        if !hints.isEmpty { entries[PostKeys.hints] = hints }
        entries[PostKeys.ifDoNotDisturb] = ifDoNotDisturb
        return entries
    }

    /// The `a{sv}` value of ``entries``.
    public var value: DBusValue { entries.value }
}

/// Where the responses of a posted notification go, when not to the connection that posted it.
public enum PostRoute: Sendable, Hashable {
    /// `exec`: a command (argv, program first; see ``ExecRule``) started with each response.
    case command([String])
    /// `app-action`: `org.freedesktop.Application.ActivateAction` on the app of `desktop-entry`; `action` `nil` means
    /// the chosen action's own id.
    case application(action: String?)
}
