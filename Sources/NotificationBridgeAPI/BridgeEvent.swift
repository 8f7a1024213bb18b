import DBusCore

/// A signal of `io.github.NotificationBridge1`, decoded: the one place that reads (and writes) the signals' arguments.
///
/// ```swift
/// for await event in try await proxy.events() {
///     if case .responded(let response) = event { print(response.notificationID, response.actionID) }
/// }
/// ```
public enum BridgeEvent: Sendable, Hashable {
    /// `Responded(s id, s action, a{sv} response)`: the user responded; the id and action are those of the response.
    case responded(BridgeResponse)
    /// `Fired(s id, a{sv} notification)`: a scheduled notification of the app came due while it was frontmost, and
    /// was not shown; the notification as `ListDelivered` lists it.
    case fired(ListedNotification)
    /// `SettingsChanged(s app_id, a{sv} settings)`: an app's settings changed, or the global do-not-disturb.
    case settingsChanged(SettingsAnnouncement)
    /// `Closed(s id, u reason)`: a notification this connection posted closed.
    case closed(id: String, reason: BridgeCloseReason)
    /// `DesktopDoNotDisturbChanged(a{sv} state)`: the desktop's do-not-disturb changed.
    case desktopDoNotDisturbChanged(DesktopDoNotDisturbState)

    /// Reads a received signal; `nil` for another interface's, a member this version does not know, or arguments
    /// that are not the signal's.
    public init?(_ signal: DBusSignal) {
        guard signal.interface == BridgeAPI.interfaceName, let member = BridgeSignal(rawValue: signal.member) else {
            return nil
        }
        self.init(member, arguments: signal.arguments)
    }

    /// Reads the arguments of signal `member`; `nil` when they are not its.
    public init?(_ member: BridgeSignal, arguments: [DBusValue]) {
        switch (member, arguments.count) {
        case (.responded, 3):
            guard let id = arguments[0].stringValue, let action = arguments[1].stringValue,
                let response = BridgeResponse(notificationID: id, actionID: action, dictionary: arguments[2])
            else { return nil }
            self = .responded(response)
        case (.fired, 2):
            guard let id = arguments[0].stringValue, var listed = ListedNotification(arguments[1]) else { return nil }
            // The argument names the notification, whatever the dictionary says.
            listed.id = id
            self = .fired(listed)
        case (.settingsChanged, 2):
            guard let app = arguments[0].stringValue,
                let announcement = SettingsAnnouncement(appID: app, settings: arguments[1])
            else { return nil }
            self = .settingsChanged(announcement)
        case (.closed, 2):
            guard let id = arguments[0].stringValue, case .uint32(let reason) = arguments[1] else { return nil }
            self = .closed(id: id, reason: BridgeCloseReason(rawValue: reason))
        case (.desktopDoNotDisturbChanged, 1):
            guard let state = DesktopDoNotDisturbState(arguments[0]) else { return nil }
            self = .desktopDoNotDisturbChanged(state)
        default:
            return nil
        }
    }

    /// Which signal it is.
    public var signal: BridgeSignal {
        switch self {
        case .responded: .responded
        case .fired: .fired
        case .settingsChanged: .settingsChanged
        case .closed: .closed
        case .desktopDoNotDisturbChanged: .desktopDoNotDisturbChanged
        }
    }

    /// The signal's arguments, as the daemon sends them.
    public var arguments: [DBusValue] {
        switch self {
        case .responded(let response):
            [.string(response.notificationID), .string(response.actionID), response.dictionary]
        case .fired(let notification):
            [.string(notification.id), .vardict(notification.entries)]
        case .settingsChanged(let announcement):
            [.string(announcement.appID), announcement.entries.value]
        case .closed(let id, let reason):
            [.string(id), .uint32(reason.rawValue)]
        case .desktopDoNotDisturbChanged(let state):
            [state.value]
        }
    }
}

extension DBusConnection {
    /// Emits `event` from the daemon's object, to `destination` only, or to every connection when it is `nil`.
    ///
    /// - Throws: `DBusFailure` when the connection is closed or the message cannot be sent.
    public func emit(_ event: BridgeEvent, to destination: String?) throws {
        try emit(
            path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName, member: event.signal.name,
            arguments: event.arguments, destination: destination)
    }
}
