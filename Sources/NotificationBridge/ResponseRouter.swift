import DBusCore
import FreedesktopNotifications
import NotificationModel

/// A notification the bridge has posted and still follows.
struct PostedNotification: Sendable {
    /// The bridge's id for it, stable across replacements and server restarts.
    let id: String
    /// The server's current id for it.
    var serverID: UInt32
    var content: NotificationContent { parts.content }
    var category: NotificationCategory? { parts.category }
    /// The caller's own server hints, sent again when the server restarts.
    var hints: [String: DBusValue] { parts.hints }
    /// The `Notify` request, encoded again for the server that replaces a restarted one.
    var encoded: NotifyEncoder.Encoded {
        get { parts.encoded }
        set { parts = Parts(content: content, category: category, hints: hints, encoded: newValue) }
    }
    /// The user acted on it: a close that follows is not a dismissal.
    var acted = false
    /// The bridge asked the server to close it.
    var closeRequested = false
    /// An activation token that arrived before the action it belongs to.
    var pendingToken: String?
    /// The unique name of the server it was posted to, when the center knew it.
    var serverOwner: String?
    /// When it was sent to the server (its timeout runs from then).
    var sentAt: ContinuousClock.Instant = .now

    /// What was posted, out of line and replaced whole when its encoding changes (when the server restarts): the
    /// router's table moves and copies a few words per notification where it moved the content, the category and the
    /// encoded request (the table grows with every notification on the screen, and a signal copies its notification
    /// out).
    private final class Parts: Sendable {
        let content: NotificationContent
        let category: NotificationCategory?
        let hints: [String: DBusValue]
        let encoded: NotifyEncoder.Encoded

        init(
            content: NotificationContent, category: NotificationCategory?, hints: [String: DBusValue],
            encoded: NotifyEncoder.Encoded
        ) {
            self.content = content
            self.category = category
            self.hints = hints
            self.encoded = encoded
        }
    }

    private var parts: Parts

    init(
        id: String, serverID: UInt32, content: NotificationContent, category: NotificationCategory?,
        hints: [String: DBusValue] = [:], encoded: NotifyEncoder.Encoded, serverOwner: String? = nil,
        sentAt: ContinuousClock.Instant = .now
    ) {
        self.id = id
        self.serverID = serverID
        parts = Parts(content: content, category: category, hints: hints, encoded: encoded)
        self.serverOwner = serverOwner
        self.sentAt = sentAt
    }
}

/// What a server signal means for a posted notification.
enum RoutedEvent: Sendable {
    /// The user chose an action (`nil` for the default action, a click on the body).
    case action(PostedNotification, NotificationAction?, token: String?)
    /// The user pressed one of the snooze buttons the encoder added, for `interval`.
    case snoozed(PostedNotification, SnoozeInterval)
    /// The user typed a reply in the server's inline field.
    case reply(PostedNotification, NotificationAction, text: String, token: String?)
    /// The notification is gone; `dismissal` says whether it counts as the user dismissing it.
    case closed(PostedNotification, NotificationCloseReason, dismissal: Bool)
}

/// Maps server signals to the notifications the bridge posted, normalising what servers do differently.
///
/// The one place for server quirks:
/// - signals naming an id the bridge did not post are ignored, and so are those from another server than the one that
///   took the notification (a restarted server numbers its notifications anew, so a late signal of the old one may
///   name the id the new one gave to another notification);
/// - an `ActivationToken` is kept and attached to the action that follows it;
/// - a `default` that follows another action (Budgie) is ignored;
/// - a close after an action is never a dismissal, whatever its reason (xfce4-notifyd and GNOME say 2, Plasma 3);
/// - a dismissal counts only with reason 2, when the bridge did not ask for the close; on a server that reports its
///   close button as an expiry (mate-notification-daemon), a reason 1 that comes before the notification's timeout
///   has passed is a dismissal too.
struct ResponseRouter: Sendable {
    /// The server the notifications are on, whose quirks apply.
    var server: NotificationServerInfo?
    /// The followed notifications, by the bridge's id: kept by their own id, since server ids of two server instances
    /// may be the same while notifications are being posted again after a restart.
    private var notifications: [String: PostedNotification] = [:]
    /// The bridge's id of the notification each server id names, for the notifications on the current server.
    private var ids: [UInt32: String] = [:]

    /// Starts following `notification` (replacing what was followed under its id).
    ///
    /// Its server id now names it: a notification of an earlier server instance with the same server id keeps its
    /// entry (it is posted again under a new id), but no longer answers to that id.
    mutating func follow(_ notification: PostedNotification) {
        if let old = notifications[notification.id]?.serverID, ids[old] == notification.id { ids[old] = nil }
        notifications[notification.id] = notification
        ids[notification.serverID] = notification.id
    }

    /// Stops following the notification with bridge id `id` and returns it.
    @discardableResult
    mutating func forget(id: String) -> PostedNotification? {
        guard let notification = notifications.removeValue(forKey: id) else { return nil }
        if ids[notification.serverID] == id { ids[notification.serverID] = nil }
        shrinkIfSparse()
        return notification
    }

    /// The capacity below which the router never gives storage back.
    private static let keptCapacity = 1_024

    /// Gives the dictionaries' storage back once under a quarter of it is used, after a large withdrawal (a
    /// dictionary never shrinks by itself, and 100,000 followed notifications leave tens of megabytes of it). Each
    /// shrink copies what is left, and the next needs a quarter again, so each removal costs a constant on average.
    private mutating func shrinkIfSparse() {
        if notifications.capacity > Self.keptCapacity, notifications.count * 4 < notifications.capacity {
            notifications = Dictionary(uniqueKeysWithValues: notifications.lazy.map { ($0.key, $0.value) })
        }
        if ids.capacity > Self.keptCapacity, ids.count * 4 < ids.capacity {
            ids = Dictionary(uniqueKeysWithValues: ids.lazy.map { ($0.key, $0.value) })
        }
    }

    /// The notification with bridge id `id`.
    func notification(id: String) -> PostedNotification? {
        notifications[id]
    }

    /// The server's id for the notification with bridge id `id`, if it is followed.
    func serverID(of id: String) -> UInt32? {
        notifications[id]?.serverID
    }

    /// Whether a signal about server id `serverID` from `sender` is about a followed notification: one with that id,
    /// taken by that server (when both are known), as ``handle(_:from:now:)`` decides. A new server numbers from 1
    /// again, so its signal about an id that a notification of the previous server still holds is not about that one.
    func follows(serverID: UInt32, from sender: String?) -> Bool {
        guard let id = ids[serverID], let notification = notifications[id] else { return false }
        guard let sender, let owner = notification.serverOwner else { return true }
        return owner == sender
    }

    /// Every followed notification.
    var all: [PostedNotification] { Array(notifications.values) }

    /// Notes that the bridge asked the server to close `id`.
    mutating func markCloseRequested(id: String) {
        notifications[id]?.closeRequested = true
    }

    /// Handles one server signal; `nil` when it means nothing for a notification of the bridge.
    ///
    /// - Parameters:
    ///   - sender: the unique name of the connection that sent it; `nil` when not known. A signal from another
    ///     connection than the server that took the notification (``PostedNotification/serverOwner``, when known)
    ///     is not about it.
    ///   - now: the time the signal is handled, against which a close is compared with the timeout.
    mutating func handle(
        _ signal: ServerSignal, from sender: String? = nil, now: ContinuousClock.Instant = .now
    ) -> RoutedEvent? {
        guard let id = ids[signal.serverID], var notification = notifications[id] else { return nil }
        if let sender, let owner = notification.serverOwner, owner != sender { return nil }
        switch signal {
        case .activationToken(_, let token):
            notifications[id]?.pendingToken = token
            return nil

        case .actionInvoked(_, let key):
            if let interval = notification.encoded.snoozeByKey[key] {
                // Over as it is shown: what comes of the id after the press (its close) is not about the notification
                // put off, which its owner may show anew meanwhile.
                notification.pendingToken = nil
                notification.acted = true
                _ = forget(id: id)
                return .snoozed(notification, interval)
            }
            let action: NotificationAction?
            if key == NotificationResponse.defaultActionID {
                guard !notification.acted, notification.content.defaultActionLabel != nil else { return nil }
                action = nil
            } else {
                // The inline-reply key carries its text in NotificationReplied, not here.
                guard key != ReservedActionID.inlineReply.rawValue, let found = notification.encoded.actionsByKey[key]
                else { return nil }
                action = found
            }
            let token = notification.pendingToken
            notification.pendingToken = nil
            notification.acted = true
            notifications[id] = notification
            return .action(notification, action, token: token)

        case .replied(_, let text):
            guard let action = notification.encoded.actionsByKey[ReservedActionID.inlineReply.rawValue] else {
                return nil
            }
            let token = notification.pendingToken
            notification.pendingToken = nil
            notification.acted = true
            notifications[id] = notification
            return .reply(notification, action, text: text, token: token)

        case .closed(let serverID, let reason):
            notifications[id] = nil
            ids[serverID] = nil
            shrinkIfSparse()
            let dismissal =
                !notification.acted && !notification.closeRequested
                && (reason == .dismissed || isCloseButton(reason, of: notification, at: now))
            return .closed(notification, reason, dismissal: dismissal)
        }
    }

    /// Whether a close with `reason` is the close button of a server that reports it as an expiry: the notification
    /// never expires, or its timeout has not passed yet. A close in the last quarter second of the timeout is taken
    /// for the expiry it most likely is.
    private func isCloseButton(
        _ reason: NotificationCloseReason, of notification: PostedNotification, at now: ContinuousClock.Instant
    ) -> Bool {
        guard reason == .expired, let server, server.reportsCloseButtonAsExpiry else { return false }
        guard let lifetime = server.lifetime(of: notification.content.timeout) else { return true }
        return now - notification.sentAt < lifetime - .milliseconds(250)
    }
}
