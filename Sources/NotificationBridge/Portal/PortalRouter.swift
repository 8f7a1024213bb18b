import NotificationModel

/// A notification the center posted through the portal and still follows.
struct PortalNotification: FollowedNotification {
    /// The bridge's id for it, which is also its portal id.
    let id: String
    var content: NotificationContent
    var category: NotificationCategory?
    var encoded: PortalEncoder.Encoded
}

/// What an `ActionInvoked` of the portal means for a notification of the bridge.
enum PortalEvent: Sendable {
    /// The user chose an action (`nil` for the default action, a click on the body).
    case action(PortalNotification, NotificationAction?, token: String?)
    /// The user typed a reply in the desktop's text field (version 2, `im.reply-with-text`).
    case reply(PortalNotification, NotificationAction, text: String, token: String?)
}

/// Maps the portal's `ActionInvoked` to the notifications the bridge posted through it.
///
/// - A signal about a notification the bridge follows is read through what was encoded for it.
/// - A signal about one it does not follow (posted by an earlier run of the app: portal notifications outlast their
///   app) is read through the target the bridge gave the button: the action is looked up in the category registered
///   now, and the user info comes from the target.
/// - Anything else is ignored.
/// - The portal has no close signal: a notification is forgotten after an action unless it is resident, as the
///   desktop removes it then.
struct PortalRouter: Sendable {
    private(set) var posted: [String: PortalNotification] = [:]

    /// Starts following `notification` (replacing what was followed under its id).
    mutating func follow(_ notification: PortalNotification) {
        posted[notification.id] = notification
    }

    /// Stops following the notification `id` and returns it.
    @discardableResult
    mutating func forget(id: String) -> PortalNotification? {
        posted.removeValue(forKey: id)
    }

    /// The notification `id`.
    func notification(id: String) -> PortalNotification? { posted[id] }

    /// Every followed notification.
    var all: [PortalNotification] { Array(posted.values) }

    /// Handles one `ActionInvoked`; `nil` when it means nothing for a notification of the bridge.
    ///
    /// - Parameter categories: the categories registered now, for notifications of an earlier run.
    mutating func handle(_ signal: PortalSignal, categories: [String: NotificationCategory]) -> PortalEvent? {
        let notification: PortalNotification
        let action: NotificationAction?
        if let followed = posted[signal.id] {
            notification = followed
            if signal.action == NotificationResponse.defaultActionID {
                guard followed.content.defaultActionLabel != nil else { return nil }
                action = nil
            } else {
                guard let found = followed.encoded.actionsByName[signal.action] else { return nil }
                action = found
            }
        } else {
            guard let target = signal.target, target.actionID == signal.action else { return nil }
            var content = NotificationContent(title: "", body: "")
            content.categoryID = target.categoryID
            content.userInfo = target.userInfo
            let category = target.categoryID.flatMap { categories[$0] }
            if signal.action == NotificationResponse.defaultActionID {
                action = nil
            } else {
                guard let found = category?.actions.first(where: { $0.id == signal.action }) else { return nil }
                action = found
            }
            let encoded = PortalEncoder.Encoded(
                notification: [:], actionsByName: action.map { [$0.id: $0] } ?? [:], textInput: [:])
            notification = PortalNotification(
                id: signal.id, content: content, category: category, encoded: encoded)
        }
        if !notification.content.isResident { posted[signal.id] = nil }
        if let action, let text = signal.text, action.isTextInput {
            return .reply(notification, action, text: text, token: signal.activationToken)
        }
        return .action(notification, action, token: signal.activationToken)
    }
}
