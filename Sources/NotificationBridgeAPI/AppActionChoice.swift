import DBusCore

/// The value of `app-action`: whether responses go to the app of `desktop-entry`, and under which action name.
public enum AppActionChoice: Sendable, Hashable {
    /// `<false>`: not to the app (the same as leaving the key out).
    case off
    /// `<true>`: to the app, as the action whose name is the chosen action's id.
    case actionIDs
    /// `<'name'>`: to the app, always as this action, with the chosen action's id in the response.
    case named(String)

    var wireValue: DBusValue {
        switch self {
        case .off: .boolean(false)
        case .actionIDs: .boolean(true)
        case .named(let name): .string(name)
        }
    }

    static func decode(_ value: DBusValue, _ place: KeyPlace) throws(DBusFailure) -> AppActionChoice {
        switch value {
        case .boolean(let flag): flag ? .actionIDs : .off
        case .string(let name): .named(name)
        default: throw place.wrongType(value, expected: "b", example: "<true> or <'respond'>")
        }
    }
}
