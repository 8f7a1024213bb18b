import DBusCore

/// A method of `io.github.NotificationBridge1`: its name, its arguments and reply with their D-Bus types, and its
/// reference text.
///
/// This table is the interface's one description of its methods: the daemon routes calls and checks their signatures
/// by it, its introspection (and so `dbus/io.github.NotificationBridge1.xml`) is made from it, and ``BridgeProxy``
/// calls by it. Code outside this module names a method as `BridgeMethod.post.name`, never by a string of its own.
public enum BridgeMethod: String, CaseIterable, Sendable {
    /// `RegisterCategory(s id, aa{sv} actions, a{sv} options)`.
    case registerCategory = "RegisterCategory"
    /// `RemoveCategory(s id)`.
    case removeCategory = "RemoveCategory"
    /// `ListCategories() -> aa{sv} categories`.
    case listCategories = "ListCategories"
    /// `Post(a{sv} notification) -> s id`.
    case post = "Post"
    /// `Withdraw(s id)`.
    case withdraw = "Withdraw"
    /// `WithdrawAll(a{sv} filter) -> as ids`.
    case withdrawAll = "WithdrawAll"
    /// `ListPending(a{sv} filter) -> aa{sv} notifications`.
    case listPending = "ListPending"
    /// `ListDelivered(a{sv} filter) -> aa{sv} notifications`.
    case listDelivered = "ListDelivered"
    /// `WaitForResponse(s id) -> (s action, a{sv} response)`.
    case waitForResponse = "WaitForResponse"
    /// `Attach(s app_name, a{sv} options)`.
    case attach = "Attach"
    /// `Detach(s app_name)`.
    case detach = "Detach"
    /// `Present(s id)`.
    case present = "Present"
    /// `GetSettings(s app_id) -> a{sv} settings`.
    case getSettings = "GetSettings"
    /// `SetSettings(s app_id, a{sv} settings)`.
    case setSettings = "SetSettings"
    /// `ListSettings() -> aa{sv} settings`.
    case listSettings = "ListSettings"
    /// `GetServerInformation() -> a{sv} information`.
    case getServerInformation = "GetServerInformation"
    /// `ListHistory(a{sv} filter) -> aa{sv} notifications`.
    case listHistory = "ListHistory"
    /// `Act(s id, s action, a{sv} options)`.
    case act = "Act"
    /// `TurnOnFocus(s name, a{sv} options)`.
    case turnOnFocus = "TurnOnFocus"
    /// `TurnOffFocus()`.
    case turnOffFocus = "TurnOffFocus"
    /// `SetFocusSchedules(s name, as schedules)`.
    case setFocusSchedules = "SetFocusSchedules"
    /// `ListFocusModes() -> aa{sv} modes`.
    case listFocusModes = "ListFocusModes"

    /// The method's D-Bus name, e.g. `Post`.
    public var name: String { rawValue }

    /// The arguments a caller sends, in order.
    public var inputs: [DBusArgumentDescription] {
        switch self {
        case .registerCategory: [.init("id", "s"), .init("actions", "aa{sv}"), .init("options", "a{sv}")]
        case .removeCategory, .withdraw, .waitForResponse, .present: [.init("id", "s")]
        case .listCategories, .listSettings, .getServerInformation, .turnOffFocus, .listFocusModes: []
        case .turnOnFocus: [.init("name", "s"), .init("options", "a{sv}")]
        case .setFocusSchedules: [.init("name", "s"), .init("schedules", "as")]
        case .post: [.init("notification", "a{sv}")]
        case .withdrawAll, .listPending, .listDelivered, .listHistory: [.init("filter", "a{sv}")]
        case .act: [.init("id", "s"), .init("action", "s"), .init("options", "a{sv}")]
        case .attach: [.init("app_name", "s"), .init("options", "a{sv}")]
        case .detach: [.init("app_name", "s")]
        case .getSettings: [.init("app_id", "s")]
        case .setSettings: [.init("app_id", "s"), .init("settings", "a{sv}")]
        }
    }

    /// The values the reply carries, in order.
    public var outputs: [DBusArgumentDescription] {
        switch self {
        case .registerCategory, .removeCategory, .withdraw, .attach, .detach, .present, .setSettings, .act,
            .turnOnFocus, .turnOffFocus, .setFocusSchedules:
            []
        case .listFocusModes: [.init("modes", "aa{sv}")]
        case .listCategories: [.init("categories", "aa{sv}")]
        case .post: [.init("id", "s")]
        case .withdrawAll: [.init("ids", "as")]
        case .listPending, .listDelivered, .listHistory: [.init("notifications", "aa{sv}")]
        case .waitForResponse: [.init("action", "s"), .init("response", "a{sv}")]
        case .getSettings: [.init("settings", "a{sv}")]
        case .listSettings: [.init("settings", "aa{sv}")]
        case .getServerInformation: [.init("information", "a{sv}")]
        }
    }

    /// The signature of the arguments, e.g. `saa{sv}a{sv}` for `RegisterCategory`.
    public var inputSignature: String { inputs.map(\.signature.rawValue).joined() }
    /// The signature of the reply, e.g. `sa{sv}` for `WaitForResponse`.
    public var outputSignature: String { outputs.map(\.signature.rawValue).joined() }
}
