import DBusCore

/// The notification portal's `ActionInvoked(s id, s action, av parameter)`, decoded.
///
/// `parameter` holds the button's target when it has one; from version 2 it is followed by the platform data
/// (`a{sv}` with `activation-token`) and, for a button with purpose `im.reply-with-text`, by the typed text. The
/// values are read by their type, not their position, so a backend that leaves one out is still understood.
struct PortalSignal: Sendable, Hashable {
    /// The app's id for the notification (the bridge's id).
    var id: String
    /// The button's action name, or the default action's.
    var action: String
    /// The target the bridge gave the button, when the portal handed it back.
    var target: PortalTarget?
    /// The activation token of the platform data (version 2).
    var activationToken: String?
    /// The typed text of a reply button (version 2).
    var text: String?

    init(id: String, action: String, target: PortalTarget?, activationToken: String?, text: String?) {
        self.id = id
        self.action = action
        self.target = target
        self.activationToken = activationToken
        self.text = text
    }

    /// Decodes an `ActionInvoked` signal; `nil` for other members or mistyped arguments.
    init?(_ signal: DBusSignal) {
        guard signal.member == "ActionInvoked", signal.arguments.count == 3,
            case .string(let id) = signal.arguments[0], case .string(let action) = signal.arguments[1],
            case .array(_, let parameter) = signal.arguments[2]
        else { return nil }
        self.init(id: id, action: action, parameter: parameter.map(\.unwrappedVariant))
    }

    /// Reads the values of `parameter`: the bridge's target, the platform data, the typed text.
    init(id: String, action: String, parameter: [DBusValue]) {
        var target: PortalTarget?
        var token: String?
        var text: String?
        for value in parameter {
            if target == nil, let found = PortalTarget(value) {
                target = found
            } else if let entries = value.stringKeyedEntries {
                token = token ?? entries[PortalWire.activationToken]?.unwrappedVariant.stringValue
            } else if case .string(let typed) = value {
                text = typed
            }
        }
        self.init(id: id, action: action, target: target, activationToken: token, text: text)
    }
}
