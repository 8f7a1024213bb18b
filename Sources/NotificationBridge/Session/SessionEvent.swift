import DBusCore
import NotificationModel

/// What happens in a ``NotificationServerSession``, in one ordered stream (``NotificationServerSession/events``):
/// events of one notification come in the order they happened, and after the bus's own news that came before them.
package enum SessionEvent: Sendable {
    /// The user acted on a notification (through the server's buttons or inline reply, or the session's prompt).
    case responded(SessionResponse)
    /// The user pressed one of the snooze buttons the session added to a notification
    /// (``NotificationContent/snoozeIntervals``): the session has asked the server to close it, and its owner decides
    /// when it comes back. No ``responded(_:)`` comes for the press, and no ``closed(_:)``: the session follows it no
    /// longer, so that a close read late is never taken for the close of the notification shown again.
    case snoozed(SessionSnooze)
    /// A notification left the server.
    case closed(SessionClosure)
    /// The prompt for a text-input action ended without text: no response comes for that action.
    case promptEnded(SessionPromptEnd)
    /// A notification was posted again to a server that took the name, under a new server id.
    case reposted(id: String, serverID: UInt32, server: String)
    /// Another server took the name (`owner` is its unique name), or nobody owns it now (`nil`). A server that took
    /// the name may not answer yet: ``serverReady(owner:info:)`` follows once it does.
    case serverChanged(owner: String?)
    /// The server `owner` answered with its information (`info`): from now on a `Notify` goes to it. Comes once per
    /// server that takes the name, after the session has it, and after any ``serverChanged(owner:)`` that named it,
    /// so that what waits for a server and the server's arrival are decided in one order.
    case serverReady(owner: String, info: NotificationServerInfo)
}

/// The user's answer to a notification, as a ``NotificationServerSession`` reports it: what its owner needs to choose
/// where it goes.
package struct SessionResponse: Sendable {
    /// The notification, as it was posted.
    package var notification: any FollowedNotification
    /// The action chosen; `nil` for the default action (a click on the body) and for `dismiss`.
    package var action: NotificationAction?
    /// The action's id, or `default`, or `dismiss`.
    package var actionID: String
    /// Typed text, from the server's inline reply or the prompt.
    package var text: String?
    /// The activation token the server gave with the action.
    package var token: String?
    /// Whether the text came from the session's prompt, which was opened before the notification may have closed.
    package var fromPrompt: Bool

    /// The caller's own server hints the notification was posted with (none on the portal path).
    package var hints: [String: DBusValue] { (notification as? PostedNotification)?.hints ?? [:] }

    /// The action raises the application: a foreground action or the default action, never a dismissal.
    package var isForeground: Bool {
        actionID != NotificationResponse.dismissActionID && (action?.activation ?? .foreground) == .foreground
    }

    /// Whether the response waits for the session to be unlocked.
    package var requiresAuthentication: Bool {
        actionID != NotificationResponse.dismissActionID && (action?.requiresAuthentication ?? true)
    }

    /// The response as handlers see it: the token only for a foreground action, since a background one raises
    /// nothing.
    package var response: NotificationResponse {
        NotificationResponse(
            notificationID: notification.id, actionID: actionID, userText: text,
            activationToken: isForeground ? token : nil, userInfo: notification.content.userInfo)
    }
}

/// A press on a snooze button, as a ``NotificationServerSession`` reports it: which notification, for how long.
package struct SessionSnooze: Sendable {
    /// The notification, as it was posted.
    package var notification: any FollowedNotification
    /// The interval of the button pressed.
    package var interval: SnoozeInterval

    /// The caller's own server hints the notification was posted with, to post it with again when it comes back.
    package var hints: [String: DBusValue] { (notification as? PostedNotification)?.hints ?? [:] }
}

/// A notification that left the server.
package struct SessionClosure: Sendable {
    /// The notification, as it was posted.
    package var notification: any FollowedNotification
    /// The reason the server gave (or ``NotificationCloseReason/closedByCall`` for a withdrawal).
    package var reason: NotificationCloseReason
    /// Whether the user acted on it before it closed.
    package var acted: Bool
    /// Whether it counts as the user dismissing it.
    package var dismissed: Bool
    /// Whether a prompt for its text is still open: its response or its end comes later.
    package var awaitsPrompt: Bool
}

/// A prompt that ended without text.
package struct SessionPromptEnd: Sendable {
    /// The notification the prompt was for.
    package var notification: any FollowedNotification
    /// Whether the notification has left the server meanwhile.
    package var isClosed: Bool
}
