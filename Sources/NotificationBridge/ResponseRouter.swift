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
    private(set) var posted: [UInt32: PostedNotification] = [:]
    private(set) var serverIDs: [String: UInt32] = [:]

    /// Starts following `notification` (replacing what was followed under its id).
    mutating func follow(_ notification: PostedNotification) {
        // After a server restart the new server reuses ids: the old id may already belong to another notification
        // posted again, which must keep it.
        if let old = serverIDs[notification.id], old != notification.serverID, posted[old]?.id == notification.id {
            posted[old] = nil
        }
        posted[notification.serverID] = notification
        serverIDs[notification.id] = notification.serverID
    }

    /// Stops following the notification with bridge id `id` and returns it.
    @discardableResult
    mutating func forget(id: String) -> PostedNotification? {
        guard let serverID = serverIDs.removeValue(forKey: id) else { return nil }
        return posted.removeValue(forKey: serverID)
    }

    /// The notification with bridge id `id`.
    func notification(id: String) -> PostedNotification? {
        serverIDs[id].flatMap { posted[$0] }
    }

    /// The server's id for the notification with bridge id `id`, if it is followed; the notification is not copied.
    func serverID(of id: String) -> UInt32? {
        guard let serverID = serverIDs[id], posted.index(forKey: serverID) != nil else { return nil }
        return serverID
    }

    /// Whether a notification with server id `serverID` is followed.
    func follows(serverID: UInt32) -> Bool { posted.index(forKey: serverID) != nil }

    /// Every followed notification.
    var all: [PostedNotification] { Array(posted.values) }

    /// Notes that the bridge asked the server to close `id`.
    mutating func markCloseRequested(id: String) {
        if let serverID = serverIDs[id] { posted[serverID]?.closeRequested = true }
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
        if let sender, let owner = posted[signal.serverID]?.serverOwner, owner != sender { return nil }
        switch signal {
        case .activationToken(let serverID, let token):
            posted[serverID]?.pendingToken = token
            return nil

        case .actionInvoked(let serverID, let key):
            guard var notification = posted[serverID] else { return nil }
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
            posted[serverID] = notification
            return .action(notification, action, token: token)

        case .replied(let serverID, let text):
            guard var notification = posted[serverID],
                let action = notification.encoded.actionsByKey[ReservedActionID.inlineReply.rawValue]
            else { return nil }
            let token = notification.pendingToken
            notification.pendingToken = nil
            notification.acted = true
            posted[serverID] = notification
            return .reply(notification, action, text: text, token: token)

        case .closed(let serverID, let reason):
            guard let notification = posted.removeValue(forKey: serverID) else { return nil }
            serverIDs[notification.id] = nil
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
