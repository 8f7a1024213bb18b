import DBusCore

/// A call of `io.github.NotificationBridge1`, decoded: the method with its arguments as named, typed values.
///
/// This is the one place that reads (and writes) the methods' argument lists, as ``BridgeEvent`` is for the signals:
/// the daemon receives each call as a request (``BridgeInterfaceDescription`` decodes it once, after DBusCore has
/// checked its signature against ``BridgeMethod/inputs``), and ``BridgeProxy`` sends each call from one. A dictionary
/// argument (`a{sv}`) stays a value here: its keys are read by its own key table (``PostKeys``, ``FilterKeys``, …),
/// whose errors name the key.
///
/// ```swift
/// switch request {
/// case .withdraw(let id): …
/// case .post(let notification): …
/// }
/// ```
public enum BridgeRequest: Sendable, Hashable {
    /// `RegisterCategory(s id, aa{sv} actions, a{sv} options)`.
    case registerCategory(id: String, actions: [DBusValue], options: DBusValue)
    /// `RemoveCategory(s id)`.
    case removeCategory(id: String)
    /// `ListCategories()`.
    case listCategories
    /// `Post(a{sv} notification)`.
    case post(notification: DBusValue)
    /// `Withdraw(s id)`.
    case withdraw(id: String)
    /// `WithdrawAll(a{sv} filter)`.
    case withdrawAll(filter: DBusValue)
    /// `ListPending(a{sv} filter)`.
    case listPending(filter: DBusValue)
    /// `ListDelivered(a{sv} filter)`.
    case listDelivered(filter: DBusValue)
    /// `WaitForResponse(s id)`.
    case waitForResponse(id: String)
    /// `Attach(s app_name, a{sv} options)`.
    case attach(appName: String, options: DBusValue)
    /// `Detach(s app_name)`.
    case detach(appName: String)
    /// `Present(s id)`.
    case present(id: String)
    /// `GetSettings(s app_id)`.
    case getSettings(appID: String)
    /// `SetSettings(s app_id, a{sv} settings)`.
    case setSettings(appID: String, settings: DBusValue)
    /// `ListSettings()`.
    case listSettings
    /// `GetServerInformation()`.
    case getServerInformation
    /// `ListHistory(a{sv} filter)`.
    case listHistory(filter: DBusValue)
    /// `Act(s id, s action, a{sv} options)`.
    case act(id: String, action: String, options: DBusValue)
    /// `TurnOnFocus(s name, a{sv} options)`: ``FocusRequest`` reads them.
    case turnOnFocus(name: String, options: DBusValue)
    /// `TurnOffFocus()`.
    case turnOffFocus
    /// `SetFocusSchedules(s name, as schedules)`: each schedule written `DAYS HH:MM-HH:MM`.
    case setFocusSchedules(name: String, schedules: [String])
    /// `ListFocusModes()`.
    case listFocusModes

    /// Reads the arguments of a call of `method`.
    ///
    /// - Throws: `org.freedesktop.DBus.Error.InvalidArgs` when they are not the method's (``BridgeMethod/inputs``):
    ///   a call the daemon serves has been checked already, so this names a mistake of a caller that skipped the check.
    public init(_ method: BridgeMethod, arguments: [DBusValue]) throws(DBusFailure) {
        var reader = ArgumentReader(method: method, arguments: arguments)
        switch method {
        case .registerCategory:
            self = .registerCategory(
                id: try reader.string(), actions: try reader.dictionaries(), options: try reader.dictionary())
        case .removeCategory: self = .removeCategory(id: try reader.string())
        case .listCategories: self = .listCategories
        case .post: self = .post(notification: try reader.dictionary())
        case .withdraw: self = .withdraw(id: try reader.string())
        case .withdrawAll: self = .withdrawAll(filter: try reader.dictionary())
        case .listPending: self = .listPending(filter: try reader.dictionary())
        case .listDelivered: self = .listDelivered(filter: try reader.dictionary())
        case .waitForResponse: self = .waitForResponse(id: try reader.string())
        case .attach: self = .attach(appName: try reader.string(), options: try reader.dictionary())
        case .detach: self = .detach(appName: try reader.string())
        case .present: self = .present(id: try reader.string())
        case .getSettings: self = .getSettings(appID: try reader.string())
        case .setSettings: self = .setSettings(appID: try reader.string(), settings: try reader.dictionary())
        case .listSettings: self = .listSettings
        case .getServerInformation: self = .getServerInformation
        case .listHistory: self = .listHistory(filter: try reader.dictionary())
        case .act: self = .act(id: try reader.string(), action: try reader.string(), options: try reader.dictionary())
        case .turnOnFocus:
            self = .turnOnFocus(name: try reader.string(), options: try reader.dictionary())
        case .turnOffFocus: self = .turnOffFocus
        case .setFocusSchedules: self = .setFocusSchedules(name: try reader.string(), schedules: try reader.strings())
        case .listFocusModes: self = .listFocusModes
        }
        try reader.finish()
    }

    /// Which method it calls.
    public var method: BridgeMethod {
        switch self {
        case .registerCategory: .registerCategory
        case .removeCategory: .removeCategory
        case .listCategories: .listCategories
        case .post: .post
        case .withdraw: .withdraw
        case .withdrawAll: .withdrawAll
        case .listPending: .listPending
        case .listDelivered: .listDelivered
        case .waitForResponse: .waitForResponse
        case .attach: .attach
        case .detach: .detach
        case .present: .present
        case .getSettings: .getSettings
        case .setSettings: .setSettings
        case .listSettings: .listSettings
        case .getServerInformation: .getServerInformation
        case .listHistory: .listHistory
        case .act: .act
        case .turnOnFocus: .turnOnFocus
        case .turnOffFocus: .turnOffFocus
        case .setFocusSchedules: .setFocusSchedules
        case .listFocusModes: .listFocusModes
        }
    }

    /// The arguments, in order, as a caller sends them.
    public var arguments: [DBusValue] {
        switch self {
        case .registerCategory(let id, let actions, let options):
            [.string(id), .array(element: "a{sv}", actions), options]
        case .removeCategory(let id), .withdraw(let id), .waitForResponse(let id), .present(let id):
            [.string(id)]
        case .detach(let name), .getSettings(let name):
            [.string(name)]
        case .listCategories, .listSettings, .getServerInformation, .turnOffFocus, .listFocusModes:
            []
        case .setFocusSchedules(let name, let schedules):
            [.string(name), .strings(schedules)]
        case .turnOnFocus(let name, let options):
            [.string(name), options]
        case .post(let dictionary), .withdrawAll(let dictionary), .listPending(let dictionary),
            .listDelivered(let dictionary), .listHistory(let dictionary):
            [dictionary]
        case .attach(let name, let dictionary), .setSettings(let name, let dictionary):
            [.string(name), dictionary]
        case .act(let id, let action, let options):
            [.string(id), .string(action), options]
        }
    }
}

/// Reads a method's arguments one after another, each checked against the type its description gives.
private struct ArgumentReader {
    let method: BridgeMethod
    let arguments: [DBusValue]
    var next = 0

    init(method: BridgeMethod, arguments: [DBusValue]) {
        self.method = method
        self.arguments = arguments
    }

    mutating func string() throws(DBusFailure) -> String {
        guard case .string(let text) = try take() else { throw mismatch() }
        return text
    }

    mutating func dictionary() throws(DBusFailure) -> DBusValue {
        let value = try take()
        guard value.signature == "a{sv}" else { throw mismatch() }
        return value
    }

    mutating func dictionaries() throws(DBusFailure) -> [DBusValue] {
        guard case .array(let element, let items) = try take(), element == "a{sv}" else { throw mismatch() }
        return items
    }

    mutating func strings() throws(DBusFailure) -> [String] {
        guard case .array(let element, let items) = try take(), element == "s" else { throw mismatch() }
        return try items.map { item throws(DBusFailure) in
            guard case .string(let text) = item else { throw mismatch() }
            return text
        }
    }

    /// Checks that no argument is left over.
    func finish() throws(DBusFailure) {
        guard next == arguments.count else { throw mismatch() }
    }

    private mutating func take() throws(DBusFailure) -> DBusValue {
        guard next < arguments.count else { throw mismatch() }
        defer { next += 1 }
        return arguments[next]
    }

    private func mismatch() -> DBusFailure {
        let signature = arguments.map(\.signature.rawValue).joined()
        return DBusFailure(
            name: DBusFailure.Name.invalidArgs,
            message: "\(method.name) takes (\(method.inputSignature)), not (\(signature)); call it with the arguments "
                + "its introspection lists")
    }
}
