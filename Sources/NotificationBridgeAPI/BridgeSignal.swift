import DBusCore

/// A signal of `io.github.NotificationBridge1`: its name, its arguments with their D-Bus types, and its reference text.
///
/// The daemon's introspection is made from this table, ``BridgeEvent`` encodes and decodes each signal by it, and
/// ``BridgeProxy/signals(_:)`` matches by it.
public enum BridgeSignal: String, CaseIterable, Sendable {
    /// `Responded(s id, s action, a{sv} response)`: to the posting connection, or the attached app, only.
    case responded = "Responded"
    /// `Fired(s id, a{sv} notification)`: to the attached app in the foreground only.
    case fired = "Fired"
    /// `SettingsChanged(s app_id, a{sv} settings)`: to every connection.
    case settingsChanged = "SettingsChanged"
    /// `Closed(s id, u reason)`: to the posting connection only.
    case closed = "Closed"
    /// `DesktopDoNotDisturbChanged(a{sv} state)`: to every connection.
    case desktopDoNotDisturbChanged = "DesktopDoNotDisturbChanged"

    /// The signal's D-Bus name, e.g. `Responded`.
    public var name: String { rawValue }

    /// Its arguments, in order.
    public var arguments: [DBusArgumentDescription] {
        switch self {
        case .responded: [.init("id", "s"), .init("action", "s"), .init("response", "a{sv}")]
        case .fired: [.init("id", "s"), .init("notification", "a{sv}")]
        case .settingsChanged: [.init("app_id", "s"), .init("settings", "a{sv}")]
        case .closed: [.init("id", "s"), .init("reason", "u")]
        case .desktopDoNotDisturbChanged: [.init("state", "a{sv}")]
        }
    }

    /// The signature of its arguments, e.g. `su` for `Closed`.
    public var signature: String { arguments.map(\.signature.rawValue).joined() }

    /// What the signal says and to whom it is sent.
    public var documentation: String {
        switch self {
        case .responded:
            "The user responded to a notification this connection posted without exec or app-action (or one of the "
                + "app this connection is attached as, whose poster has gone). Sent to that connection only."
        case .fired:
            "A scheduled notification of the app this connection is attached as, in the foreground, came due: it is "
                + "not shown (call Present to show it). Keys as ListDelivered returns them. Sent to that connection "
                + "only."
        case .settingsChanged:
            "An app's notification settings changed (through SetSettings, GNOME's Settings app or an edit of the "
                + "bridge's file): its settings as GetSettings returns them. An empty app_id: the global "
                + "do-not-disturb changed. Sent to every connection."
        case .closed:
            "A notification this connection posted closed: "
                + BridgeCloseReason.all.map { "\($0.rawValue) \($0.meaning)" }.joined(separator: ", ")
                + ". Sent to that connection only; after Responded when the notification had a response, however "
                + "the user answered."
        case .desktopDoNotDisturbChanged:
            "The desktop's do-not-disturb turned on or off, or another desktop's switch is followed: the state as the "
                + "DesktopDoNotDisturb property holds it. Sent to every connection."
        }
    }
}
