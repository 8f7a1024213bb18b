import DBusCore

/// Why the server closed a notification (`NotificationClosed`'s reason).
public enum NotificationCloseReason: UInt32, Sendable, Hashable, CaseIterable {
    /// It timed out.
    case expired = 1
    /// The user dismissed it — or, on some servers, acted on it (see `ResponseRouter`, which tells the two apart).
    case dismissed = 2
    /// `CloseNotification` closed it.
    case closedByCall = 3
    /// Anything else.
    case undefined = 4

    /// The reason for a wire code; unknown codes are ``undefined``.
    public init(code: UInt32) {
        self = NotificationCloseReason(rawValue: code) ?? .undefined
    }

    /// The name used in the daemon's API and in logs.
    public var name: String {
        switch self {
        case .expired: "expired"
        case .dismissed: "dismissed"
        case .closedByCall: "closed"
        case .undefined: "undefined"
        }
    }
}

/// A signal of the notification server, decoded.
enum ServerSignal: Sendable, Hashable {
    case actionInvoked(id: UInt32, key: String)
    case replied(id: UInt32, text: String)
    case activationToken(id: UInt32, token: String)
    case closed(id: UInt32, reason: NotificationCloseReason)

    /// The server's id of the notification the signal is about.
    var serverID: UInt32 {
        switch self {
        case .actionInvoked(let id, _), .replied(let id, _), .activationToken(let id, _), .closed(let id, _): id
        }
    }

    /// Decodes a signal of `org.freedesktop.Notifications`; `nil` for other members or mistyped arguments.
    init?(_ signal: DBusSignal) {
        guard signal.arguments.count == 2, case .uint32(let id) = signal.arguments[0] else { return nil }
        switch (signal.member, signal.arguments[1]) {
        case ("ActionInvoked", .string(let key)):
            self = .actionInvoked(id: id, key: key)
        case ("NotificationReplied", .string(let text)):
            self = .replied(id: id, text: text)
        case ("ActivationToken", .string(let token)):
            self = .activationToken(id: id, token: token)
        case ("NotificationClosed", .uint32(let reason)):
            self = .closed(id: id, reason: NotificationCloseReason(code: reason))
        default:
            return nil
        }
    }
}

/// A server signal as it arrived: what it says, and the unique name of the connection that sent it.
struct ReceivedServerSignal: Sendable, Hashable {
    var signal: ServerSignal
    /// The sender's unique name (`:1.42`); `nil` for a signal the center stands in for (an expiry the server does not
    /// report).
    var sender: String?
}
