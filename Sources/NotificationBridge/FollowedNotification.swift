import NotificationModel

/// A notification the center follows on either path (the notification server's or the portal's): what a response
/// needs to find its handler and carry its user info.
package protocol FollowedNotification: Sendable {
    /// The center's id for it.
    var id: String { get }
    /// What was posted.
    var content: NotificationContent { get }
    /// The registered category it names, if any.
    var category: NotificationCategory? { get }
}

extension PostedNotification: FollowedNotification {}
