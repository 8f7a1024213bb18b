import DBusCore
import NotificationModel

/// Actions as the interface writes them: one `a{sv}` per action (keys in ``ActionKeys``), in an `aa{sv}`.
public enum ActionWire {
    /// An example for messages, in `gdbus` notation.
    public static let example = "<[{'\(ActionKeys.id.name)': <'reply'>, '\(ActionKeys.title.name)': <'Reply'>}]>"

    /// A key whose value is a list of actions (`actions` of `Post` and of categories).
    public static func key(_ name: String, summary: String) -> BridgeKey<[NotificationAction]> {
        BridgeKey<[NotificationAction]>(
            name, types: ["aa{sv}"], summary: summary,
            decode: { value, place throws(DBusFailure) in
                guard case .array(let element, let items) = value, element == "a{sv}" else {
                    throw place.wrongType(value, expected: "aa{sv}", example: example)
                }
                return try decode(items)
            },
            encode: value(of:))
    }

    /// Reads the actions of an `aa{sv}`, named `actions[0]`, `actions[1]`, … in messages.
    ///
    /// The count is checked before any action is read, so that thousands of actions cost nothing.
    ///
    /// - Throws: `InvalidArgument` saying which action is wrong and how.
    public static func decode(_ dictionaries: [DBusValue]) throws(DBusFailure) -> [NotificationAction] {
        let limit = NotificationLimits.maxActionsPerCategory
        guard dictionaries.count <= limit else {
            throw BridgeError.invalid(
                "actions has \(dictionaries.count) entries; at most \(limit) are allowed, remove some")
        }
        var actions: [NotificationAction] = []
        for (index, dictionary) in dictionaries.enumerated() {
            actions.append(try decode(dictionary, place: "actions[\(index)]"))
        }
        return actions
    }

    /// Reads one action.
    public static func decode(_ value: DBusValue, place: String) throws(DBusFailure) -> NotificationAction {
        let reader: VariantDictionary
        do {
            reader = try VariantDictionary(value, place: place, keys: ActionKeys.all)
        } catch {
            // People put the notification's handler keys on actions by mistake.
            let handlerKeys = PostKeys.handler.map(\.name)
            if case .dictionary(_, _, let entries) = value,
                let handlerKey = entries.lazy.compactMap(\.key.stringValue).first(where: handlerKeys.contains)
            {
                throw BridgeError.invalid(
                    "\(place) has key '\(handlerKey)', which belongs to the notification: responses go to one place "
                        + "chosen for the whole notification, so set '\(handlerKey)' next to 'actions'")
            }
            throw error
        }
        guard let id = try reader.decode(ActionKeys.id) else {
            throw BridgeError.invalid("\(place) has no 'id'; give each action an id, e.g. 'id': <'reply'>")
        }
        guard let title = try reader.decode(ActionKeys.title) else {
            throw BridgeError.invalid(
                "\(place) has no 'title'; give each action the label of its button, "
                    + "e.g. 'title': <'Reply'>")
        }
        let activation = try reader.decode(ActionKeys.activation) ?? .foreground
        let authentication = try reader.decode(ActionKeys.authenticationRequired)
        if authentication == false, activation == .foreground {
            throw reader.invalid(
                ActionKeys.authenticationRequired,
                "is false, but foreground actions always require authentication "
                    + "(the app is raised); set 'activation': <'background'> or leave 'authentication-required' out")
        }
        let isTextInput = try reader.decode(ActionKeys.behavior) == .textInput
        let buttonTitle = try reader.decode(ActionKeys.textInputButtonTitle)
        let placeholder = try reader.decode(ActionKeys.textInputPlaceholder)
        let fallback = try reader.decode(ActionKeys.textInputFallback)
        if !isTextInput {
            for key in ActionKeys.textInputOnly where reader.contains(key.name) {
                throw reader.invalid(
                    key.name,
                    "applies only to text-input actions; add 'behavior': <'text-input'> "
                        + "or leave '\(key.name)' out")
            }
        }
        return NotificationAction(
            id: id, title: title, activation: activation,
            isDestructive: try reader.decode(ActionKeys.destructive) ?? false,
            requiresAuthentication: authentication ?? false,
            behavior: isTextInput ? .textInput(submitButtonTitle: buttonTitle, placeholder: placeholder) : .default,
            textInputFallback: fallback ?? .hide)
    }

    /// An action as one `a{sv}`: every key, and for text input those of the text field.
    public static func value(of action: NotificationAction) -> DBusValue {
        var entries = WireEntries()
        entries[ActionKeys.id] = action.id
        entries[ActionKeys.title] = action.title
        entries[ActionKeys.activation] = action.activation
        entries[ActionKeys.destructive] = action.isDestructive
        entries[ActionKeys.authenticationRequired] = action.requiresAuthentication
        entries[ActionKeys.behavior] = action.isTextInput ? .textInput : .default
        if case .textInput(let input) = action.behavior {
            entries[ActionKeys.textInputButtonTitle] = input.submitButtonTitle
            entries[ActionKeys.textInputPlaceholder] = input.placeholder
            entries[ActionKeys.textInputFallback] = action.textInputFallback
        }
        return entries.value
    }

    /// Actions as an `aa{sv}`.
    public static func value(of actions: [NotificationAction]) -> DBusValue {
        .array(element: "a{sv}", actions.map(value(of:)))
    }
}
