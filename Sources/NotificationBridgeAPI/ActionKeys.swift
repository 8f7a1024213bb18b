import NotificationModel

/// The keys of one action (`a{sv}`), in `Post`'s `actions` and in `RegisterCategory`: ``ActionWire`` reads and
/// writes them.
public enum ActionKeys {
    /// `id` (s, required).
    public static let id = BridgeKey.string("id", example: "<'reply'>", summary: "the action's id, reported back")
    /// `title` (s, required).
    public static let title = BridgeKey.string("title", example: "<'Reply'>", summary: "the label of its button")
    /// `activation` (s): `foreground` (the default) or `background`.
    public static let activation = BridgeKey<NotificationAction.Activation>.choice(
        "activation", summary: "foreground (raises the app; the default) or background")
    /// `destructive` (b).
    public static let destructive = BridgeKey.boolean("destructive", summary: "shown as destructive")
    /// `authentication-required` (b).
    public static let authenticationRequired = BridgeKey.boolean(
        "authentication-required",
        summary: "held while the session is locked (background actions only: foreground ones always are)")
    /// `behavior` (s): `default` or `text-input`.
    public static let behavior = BridgeKey<Behavior>.choice(
        "behavior", summary: "default, or text-input to ask for text")
    /// `text-input-button-title` (s).
    public static let textInputButtonTitle = BridgeKey.string(
        "text-input-button-title", example: "<'Send'>", summary: "the submit button of a text-input action")
    /// `text-input-placeholder` (s).
    public static let textInputPlaceholder = BridgeKey.string(
        "text-input-placeholder", example: "<'Your answer'>", summary: "the hint in the text field")
    /// `text-input-fallback` (s): `hide` (the default) or `deliver-without-text`.
    public static let textInputFallback = BridgeKey<NotificationAction.TextInputFallback>.choice(
        "text-input-fallback", summary: "where no text can be asked for: hide (the default) or deliver-without-text")

    /// The keys that apply only to text-input actions.
    public static let textInputOnly: [BridgeKeyInfo] = [
        textInputButtonTitle.info, textInputPlaceholder.info, textInputFallback.info,
    ]
    /// Every key of an action, in the order error messages list them.
    public static let all: [BridgeKeyInfo] =
        [id.info, title.info, activation.info, destructive.info, authenticationRequired.info, behavior.info]
        + textInputOnly

    /// The values of `behavior`.
    public enum Behavior: String, Sendable, CaseIterable {
        /// A button.
        case `default`
        /// A button that asks for text.
        case textInput = "text-input"
    }
}
