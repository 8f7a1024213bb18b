import DBusCore
import NotificationBridge
import NotificationModel

/// Actions as the D-Bus API writes them: one `a{sv}` per action.
///
/// Keys: `id` (s, required), `title` (s, required), `activation` (`'foreground'`, the default, or `'background'`),
/// `destructive` (b), `authentication-required` (b; background actions only: foreground ones always require it),
/// `behavior` (`'default'` or `'text-input'`), and for text input `text-input-button-title` (s),
/// `text-input-placeholder` (s) and `text-input-fallback` (`'hide'`, the default, or `'deliver-without-text'`).
enum ActionCoding {
    static let keys = [
        "id", "title", "activation", "destructive", "authentication-required", "behavior", "text-input-button-title",
        "text-input-placeholder", "text-input-fallback",
    ]

    static let example = "<[{'id': <'reply'>, 'title': <'Reply'>}]>"
    /// Notification keys that people put on actions by mistake.
    private static let handlerKeys = ["exec", "app-action"]

    /// Reads the actions of `actions` (an `aa{sv}`), named `actions[0]`, `actions[1]`, … in messages.
    ///
    /// The count is checked before any action is read, so that thousands of actions cost nothing.
    static func decode(_ dictionaries: [DBusValue]) throws(DBusFailure) -> [NotificationAction] {
        let limit = NotificationLimits.maxActionsPerCategory
        guard dictionaries.count <= limit else {
            throw BridgeError.invalid(
                "actions has \(dictionaries.count) entries; at most \(limit) are allowed, remove some")
        }
        var actions: [NotificationAction] = []
        for (index, dictionary) in dictionaries.enumerated() {
            actions.append(try decodeAction(dictionary, place: "actions[\(index)]"))
        }
        return actions
    }

    private static func decodeAction(_ value: DBusValue, place: String) throws(DBusFailure) -> NotificationAction {
        let reader: VariantDictionary
        do {
            reader = try VariantDictionary(value, place: place, known: keys)
        } catch {
            if case .dictionary(_, _, let entries) = value,
                let handlerKey = entries.lazy.compactMap(\.key.stringValue).first(where: Self.handlerKeys.contains)
            {
                throw BridgeError.invalid(
                    "\(place) has key '\(handlerKey)', which belongs to the notification: responses go to one place "
                        + "chosen for the whole notification, so set '\(handlerKey)' next to 'actions'")
            }
            throw error
        }
        guard let id = try reader.string("id", example: "<'reply'>") else {
            throw BridgeError.invalid("\(place) has no 'id'; give each action an id, e.g. 'id': <'reply'>")
        }
        guard let title = try reader.string("title", example: "<'Reply'>") else {
            throw BridgeError.invalid("\(place) has no 'title'; give each action the label of its button, "
                + "e.g. 'title': <'Reply'>")
        }
        let activation = try reader.choice("activation", ["foreground", "background"])
            .flatMap(NotificationAction.Activation.init(rawValue:)) ?? .foreground
        let authentication = try reader.boolean("authentication-required")
        if authentication == false, activation == .foreground {
            throw reader.invalid(
                "authentication-required", "is false, but foreground actions always require authentication (the app "
                    + "is raised); set 'activation': <'background'> or leave 'authentication-required' out")
        }
        let isTextInput = try reader.choice("behavior", ["default", "text-input"]) == "text-input"
        let buttonTitle = try reader.string("text-input-button-title", example: "<'Send'>")
        let placeholder = try reader.string("text-input-placeholder", example: "<'Your answer'>")
        let fallback = try reader.choice("text-input-fallback", ["hide", "deliver-without-text"])
            .flatMap(NotificationAction.TextInputFallback.init(rawValue:))
        if !isTextInput {
            for key in ["text-input-button-title", "text-input-placeholder", "text-input-fallback"]
            where reader.contains(key) {
                throw reader.invalid(key, "applies only to text-input actions; add 'behavior': <'text-input'> "
                    + "or leave '\(key)' out")
            }
        }
        return NotificationAction(
            id: id, title: title, activation: activation, isDestructive: try reader.boolean("destructive") ?? false,
            requiresAuthentication: authentication ?? false,
            behavior: isTextInput ? .textInput(submitButtonTitle: buttonTitle, placeholder: placeholder) : .default,
            textInputFallback: fallback ?? .hide)
    }

    /// Actions in the form ``decode(_:)`` reads.
    static func encode(_ actions: [NotificationAction]) -> DBusValue {
        BridgeWireFormat.value(of: actions)
    }
}
