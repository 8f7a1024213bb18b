import DBusCore
import NotificationModel

/// A response as the daemon hands it on: the `a{sv}` of `Responded`, `WaitForResponse` and `app-action` (keys in
/// ``ResponseKeys``), or the environment of an `exec` command.
public struct BridgeResponse: Sendable, Hashable {
    /// The notification's id.
    public var notificationID: String
    /// The chosen action's id.
    public var actionID: String
    /// Typed text: for its one destination only, never logged.
    public var text: String?
    /// The activation token, kept only for foreground actions (the default action counts as one).
    public var activationToken: String?
    /// The notification's user info.
    public var userInfo: [String: JSONValue]

    /// Describes a response.
    public init(
        notificationID: String, actionID: String, text: String? = nil, activationToken: String? = nil,
        userInfo: [String: JSONValue] = [:]
    ) {
        self.notificationID = notificationID
        self.actionID = actionID
        self.text = text
        self.activationToken = activationToken
        self.userInfo = userInfo
    }

    /// A response of the model, with its token kept only when the action is `foreground`.
    package init(_ response: NotificationResponse, foreground: Bool) {
        notificationID = response.notificationID
        actionID = response.actionID
        text = response.userText
        activationToken = foreground ? response.activationToken.flatMap { $0.isEmpty ? nil : $0 } : nil
        userInfo = response.userInfo
    }

    /// Reads a received response dictionary; `nil` when it lacks `id` or `action`.
    ///
    /// A `user-info` that is not a JSON object is read as empty.
    public init?(_ value: DBusValue) {
        guard let entries = WireEntries(value), let id = entries[ResponseKeys.id],
            let action = entries[ResponseKeys.action]
        else { return nil }
        self.init(
            notificationID: id, actionID: action, text: entries[ResponseKeys.text],
            activationToken: entries[ResponseKeys.activationToken], userInfo: entries[ResponseKeys.userInfo] ?? [:])
    }

    /// Reads a response whose notification and action are given apart from its dictionary (as `Responded` and
    /// `WaitForResponse` give them); the dictionary's own copies of them, if any, are not needed. `nil` when
    /// `dictionary` is not an `a{sv}`.
    public init?(notificationID: String, actionID: String, dictionary: DBusValue) {
        guard let entries = WireEntries(dictionary) else { return nil }
        self.init(
            notificationID: notificationID, actionID: actionID, text: entries[ResponseKeys.text],
            activationToken: entries[ResponseKeys.activationToken], userInfo: entries[ResponseKeys.userInfo] ?? [:])
    }

    /// The response as the model has it.
    public var notificationResponse: NotificationResponse {
        NotificationResponse(
            notificationID: notificationID, actionID: actionID, userText: text, activationToken: activationToken,
            userInfo: userInfo)
    }

    /// The user info as JSON object text.
    public var userInfoJSON: String { JSONValue.object(userInfo).jsonText }

    /// `id`, `action`, `user-info` (JSON text), and `text` and `activation-token` when there are some.
    public var dictionary: DBusValue {
        var entries = WireEntries()
        entries[ResponseKeys.id] = notificationID
        entries[ResponseKeys.action] = actionID
        entries[ResponseKeys.userInfo] = userInfo
        entries[ResponseKeys.text] = text
        entries[ResponseKeys.activationToken] = activationToken
        return entries.value
    }

    /// The most bytes of typed text `NOTIFICATION_TEXT` holds (64 KiB).
    ///
    /// The kernel refuses to start a program with one environment string over 128 KiB (`MAX_ARG_STRLEN`: "Argument
    /// list too long"), so longer text is cut to this size, never inside a UTF-8 sequence, and
    /// `NOTIFICATION_TEXT_TRUNCATED` is `1`. The whole text is always on the command's standard input.
    public static let maximumTextVariableBytes = 65_536

    /// The variables of an `exec` command: `NOTIFICATION_ID`, `NOTIFICATION_ACTION`, `NOTIFICATION_USER_INFO`, and
    /// when there is one, `NOTIFICATION_TEXT` (cut to ``maximumTextVariableBytes``, with
    /// `NOTIFICATION_TEXT_TRUNCATED=1` when it was) and the token as `XDG_ACTIVATION_TOKEN` and `DESKTOP_STARTUP_ID`.
    public var environment: [String: String] {
        var variables = [
            "NOTIFICATION_ID": notificationID, "NOTIFICATION_ACTION": actionID, "NOTIFICATION_USER_INFO": userInfoJSON,
        ]
        if let text {
            let (variable, truncated) = Self.textVariable(text)
            variables["NOTIFICATION_TEXT"] = variable
            if truncated { variables["NOTIFICATION_TEXT_TRUNCATED"] = "1" }
        }
        if let activationToken {
            variables["XDG_ACTIVATION_TOKEN"] = activationToken
            variables["DESKTOP_STARTUP_ID"] = activationToken
        }
        return variables
    }

    /// `text` cut to at most ``maximumTextVariableBytes`` bytes of UTF-8 without splitting a sequence, and whether
    /// it was cut.
    private static func textVariable(_ text: String) -> (String, Bool) {
        let utf8 = text.utf8
        guard utf8.count > maximumTextVariableBytes else { return (text, false) }
        var end = utf8.index(utf8.startIndex, offsetBy: maximumTextVariableBytes)
        // Back up to the start of a character: a UTF-8 continuation byte is 0b10xxxxxx.
        while end > utf8.startIndex, utf8[end] & 0xC0 == 0x80 { end = utf8.index(before: end) }
        return (String(decoding: utf8[..<end], as: UTF8.self), true)
    }
}
