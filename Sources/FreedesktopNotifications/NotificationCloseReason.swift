/// Why the server closed a notification: the `reason` argument of `org.freedesktop.Notifications.NotificationClosed`.
public enum NotificationCloseReason: UInt32, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// It timed out (code 1).
    case expired = 1
    /// The user dismissed it (code 2) — or, on some servers, acted on it (the bridge's router tells the two apart).
    case dismissed = 2
    /// `CloseNotification` closed it (code 3). Plasma and dunst also use it after an action.
    case closedByCall = 3
    /// Undefined or reserved (code 4), and any code outside the specification.
    case undefined = 4

    /// The reason for a wire code; unknown codes are ``undefined``.
    public init(code: UInt32) {
        self = NotificationCloseReason(rawValue: code) ?? .undefined
    }

    /// The name used in the bridge's API and in logs.
    public var name: String {
        switch self {
        case .expired: "expired"
        case .dismissed: "dismissed"
        case .closedByCall: "closed"
        case .undefined: "undefined"
        }
    }

    /// The name and the code, such as `expired (1)`.
    public var description: String {
        switch self {
        case .expired: "expired (1)"
        case .dismissed: "dismissed (2)"
        case .closedByCall: "closed by call (3)"
        case .undefined: "undefined (4)"
        }
    }
}
