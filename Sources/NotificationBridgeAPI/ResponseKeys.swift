import NotificationModel

/// The keys of a response (`a{sv}`), in `Responded`, `WaitForResponse` and the `app-action` platform data:
/// ``BridgeResponse`` reads and writes them.
public enum ResponseKeys {
    /// `id` (s).
    public static let id = BridgeKey.string("id", example: "<'3f9c2a7e1b4d5c6a'>", summary: "the notification's id")
    /// `action` (s).
    public static let action = BridgeKey.string(
        "action", example: "<'reply'>", summary: "the chosen action's id; default for a click on the body")
    /// `text` (s).
    public static let text = BridgeKey.string("text", example: "<'On my way'>", summary: "the typed text, if any")
    /// `activation-token` (s).
    public static let activationToken = BridgeKey.string(
        "activation-token", example: "<'token'>", summary: "the token to raise a window with (foreground actions)")
    /// `user-info` (s).
    public static let userInfo = UserInfoWire.key(summary: "the notification's user-info, as JSON object text")

    /// Every key.
    public static let all: [BridgeKeyInfo] = [id.info, action.info, text.info, activationToken.info, userInfo.info]
}
