import FoundationEssentials
import NotificationBridgeAPI
import NotificationModel

/// What the daemon keeps in its history of a notification it delivered, once it ended: enough to list it and to
/// answer it later as a click would have (``DaemonCore/act(_:)``). Typed text is never part of it.
///
/// Stored in the row form of the store; its field names belong to that form (see `RowFormat`).
struct EndedPost: Codable, Sendable {
    /// The notification's id.
    var id: String
    /// The app it was posted under.
    var appName: String
    /// The connection that posted it: a later answer goes to it while it is on the bus.
    var poster: String
    /// What it showed, its user info included.
    var content: NotificationContent
    /// The actions it offered, as they were: its own, or its category's at the time it ended.
    var actions: [NotificationAction]
    /// Where its responses went.
    var route: ResponseRoute
    /// How it ended.
    var ending: NotificationEnding
    /// The action id of its response, for one that was answered (now, or later with `Act`).
    var responseAction: String?
    /// When it ended.
    var endedAt: Date

    /// The action `id` it offered, or its default action (a click on its body); `nil` for any other id.
    func action(_ id: String) -> NotificationAction?? {
        if id == NotificationResponse.defaultActionID { return .some(nil) }
        return actions.first { $0.id == id }.map { .some($0) }
    }

    /// The entry as `ListHistory` lists it; `answerable` as ``DaemonCore/answerRefusal(_:by:posterIsConnected:)``
    /// judges it for the caller.
    func listed(answerable: Bool) -> HistoryEntry {
        var shown = content
        // The actions it offered are listed with it, also when they came from its category.
        if content.actions.isEmpty, !actions.isEmpty { shown.actions = actions }
        let listed = NotificationCoding.encode(id: id, content: shown, route: route.listed)
        return HistoryEntry(
            notification: ListedNotification(listed)
                ?? ListedNotification(id: id, post: NotificationPost(content: shown)),
            ending: ending, endedAtSeconds: Int64(endedAt.timeIntervalSince1970.rounded(.down)),
            responseAction: responseAction, answerable: answerable)
    }
}
