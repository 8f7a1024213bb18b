/// What the user did with a notification, as delivered to the place chosen when it was posted.
///
/// Encoded with the keys `notification-id`, `action-id`, `user-text`, `activation-token` and `user-info`.
public struct NotificationResponse: Sendable, Hashable {
    /// The action id reported when the user clicked the body of the notification.
    public static let defaultActionID = ReservedActionID.default.rawValue

    /// The action id reported when the user dismissed the notification, for categories that ask for it.
    public static let dismissActionID = ReservedActionID.dismiss.rawValue

    /// The action id of a snooze, reported only when the category asks for it
    /// (``NotificationCategory/reportsSnooze``). Not reserved: a category that does not report snoozes may have an
    /// action of its own with this id.
    public static let snoozeActionID = "snooze"

    /// The bridge's id of the notification that was answered.
    public var notificationID: String

    /// The ``NotificationAction/id`` of the chosen action, ``defaultActionID`` or ``dismissActionID``.
    public var actionID: String

    /// The text the user typed for a text-input action; `nil` for other actions, and for text-input actions delivered
    /// under ``NotificationAction/TextInputFallback/deliverWithoutText``.
    ///
    /// Private to the user: deliver it only to the response's destination, never log it.
    public var userText: String?

    /// The token that lets the app raise its window (Wayland xdg-activation token or X11 startup id); `nil` when the
    /// server sent none or the action runs in the background.
    public var activationToken: String?

    /// The ``NotificationContent/userInfo`` of the notification, returned unchanged.
    public var userInfo: [String: JSONValue]

    /// Makes a response.
    public init(
        notificationID: String,
        actionID: String,
        userText: String? = nil,
        activationToken: String? = nil,
        userInfo: [String: JSONValue] = [:]
    ) {
        self.notificationID = notificationID
        self.actionID = actionID
        self.userText = userText
        self.activationToken = activationToken
        self.userInfo = userInfo
    }

    /// Whether the user clicked the body rather than a button.
    public var isDefaultAction: Bool { actionID == Self.defaultActionID }

    /// Whether the user dismissed the notification.
    public var isDismissal: Bool { actionID == Self.dismissActionID }
}

extension NotificationResponse: Codable {
    private enum CodingKeys: String, CodingKey {
        case notificationID = "notification-id"
        case actionID = "action-id"
        case userText = "user-text"
        case activationToken = "activation-token"
        case userInfo = "user-info"
    }

    /// Decodes a response; `notification-id` and `action-id` are required.
    ///
    /// - Throws: `DecodingError` when a required key is missing or a value has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            notificationID: try container.decode(String.self, forKey: .notificationID),
            actionID: try container.decode(String.self, forKey: .actionID),
            userText: try container.decodeIfPresent(String.self, forKey: .userText),
            activationToken: try container.decodeIfPresent(String.self, forKey: .activationToken),
            userInfo: try container.decodeIfPresent([String: JSONValue].self, forKey: .userInfo) ?? [:]
        )
    }

    /// Encodes every set field.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(notificationID, forKey: .notificationID)
        try container.encode(actionID, forKey: .actionID)
        try container.encodeIfPresent(userText, forKey: .userText)
        try container.encodeIfPresent(activationToken, forKey: .activationToken)
        try container.encode(userInfo, forKey: .userInfo)
    }
}
