import DBusCore
import NotificationModel

/// A response as the daemon hands it on: the `a{sv}` of `Responded`, `WaitForResponse` and `app-action`, or the
/// environment of an `exec` command.
struct BridgeResponse: Sendable {
    var notificationID: String
    var actionID: String
    /// Typed text: for its one destination only, never logged.
    var text: String?
    /// The activation token, kept only for foreground actions (the default action counts as one).
    var activationToken: String?
    var userInfo: [String: JSONValue]

    init(_ response: NotificationResponse, foreground: Bool) {
        notificationID = response.notificationID
        actionID = response.actionID
        text = response.userText
        activationToken = foreground ? response.activationToken.flatMap { $0.isEmpty ? nil : $0 } : nil
        userInfo = response.userInfo
    }

    var userInfoJSON: String { JSONValue.object(userInfo).jsonText }

    /// `id`, `action`, `user-info` (JSON text), and `text` and `activation-token` when there are some.
    var dictionary: DBusValue {
        var entries: [String: DBusValue] = [
            "id": .string(notificationID), "action": .string(actionID), "user-info": .string(userInfoJSON),
        ]
        if let text { entries["text"] = .string(text) }
        if let activationToken { entries["activation-token"] = .string(activationToken) }
        return .vardict(entries)
    }

    /// The variables of an `exec` command.
    var environment: [String: String] {
        var variables = [
            "NOTIFICATION_ID": notificationID, "NOTIFICATION_ACTION": actionID, "NOTIFICATION_USER_INFO": userInfoJSON,
        ]
        if let text { variables["NOTIFICATION_TEXT"] = text }
        if let activationToken {
            variables["XDG_ACTIVATION_TOKEN"] = activationToken
            variables["DESKTOP_STARTUP_ID"] = activationToken
        }
        return variables
    }
}
