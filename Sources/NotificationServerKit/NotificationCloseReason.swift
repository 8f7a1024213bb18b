/// Why a notification closed: the `reason` argument of `org.freedesktop.Notifications.NotificationClosed`.
///
/// A small wrapper over the specification's `u` code, so a profile can name a reason in Swift and still carry any
/// value a real server sends.
public struct NotificationCloseReason: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The code on the wire.
    public let rawValue: UInt32

    /// Wraps a code, including codes outside the specification.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// The notification expired (code 1).
    public static let expired = NotificationCloseReason(rawValue: 1)
    /// The user dismissed it (code 2). Several servers also use it after an action, which is not a dismissal.
    public static let dismissed = NotificationCloseReason(rawValue: 2)
    /// A `CloseNotification` call closed it (code 3). Plasma and dunst also use it after an action.
    public static let closedByCall = NotificationCloseReason(rawValue: 3)
    /// Undefined or reserved (code 4).
    public static let undefined = NotificationCloseReason(rawValue: 4)

    /// The name and the code, such as `expired (1)`.
    public var description: String {
        switch rawValue {
        case 1: "expired (1)"
        case 2: "dismissed (2)"
        case 3: "closed by call (3)"
        case 4: "undefined (4)"
        default: "reason \(rawValue)"
        }
    }
}
