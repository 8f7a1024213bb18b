/// Whose a notification on the server is, told by its id alone: an app's, posted under an id of the form of
/// ``NotificationIDForm`` (16 hexadecimal digits), or one the daemon shows of its own under an id no app can name.
/// The session's responses and closes are routed by it, at the one point where every notification's are
/// (``DaemonCore/handle(_:)``): an app's go through the table and its response route, the daemon's own to the feature
/// that showed it.
enum NotificationOwner: Sendable, Hashable {
    /// Posted by an app: tracked in the daemon's table, answered through its ``ResponseRoute``.
    case app
    /// Shown by the daemon itself.
    case daemon(DaemonNotification)

    /// The owner of the notification with id `id`.
    init(id: String) {
        if id == FocusDigest.notificationID {
            self = .daemon(.focusDigest)
        } else if id.hasPrefix(FloodFolds.idPrefix) {
            self = .daemon(.floodFold(id))
        } else {
            self = .app
        }
    }
}

/// A notification the daemon shows of its own, and so what its actions and its leaving the screen do.
enum DaemonNotification: Sendable, Hashable {
    /// The digest of a focus mode that ended (``FocusDigest``): its actions show, keep in the history or dismiss what
    /// the mode held; its leaving the screen otherwise changes nothing, and they stay held, listed by `ListPending`.
    case focusDigest
    /// The notification that counts a flood, with its id (``FloodFolds``): a click or its leaving the screen ends the
    /// posts folded into it, "Dismiss all" dismisses them.
    case floodFold(String)
}
