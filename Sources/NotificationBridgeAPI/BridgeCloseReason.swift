/// Why a notification closed, as the `Closed` signal says it: the numbers of `org.freedesktop.Notifications`'
/// `NotificationClosed`, with the bridge's meaning of 3.
public struct BridgeCloseReason: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The number on the wire.
    public let rawValue: UInt32

    /// Wraps a number; any is accepted, so that reasons of later versions can be carried.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `1`: it expired.
    public static let expired = BridgeCloseReason(rawValue: 1)
    /// `2`: the user dismissed it.
    public static let dismissed = BridgeCloseReason(rawValue: 2)
    /// `3`: it was withdrawn, or closed after a response.
    public static let withdrawn = BridgeCloseReason(rawValue: 3)
    /// `4`: any other reason.
    public static let other = BridgeCloseReason(rawValue: 4)
    /// `5`: not shown: the desktop's do-not-disturb was on, and the post asked for `if-do-not-disturb` `drop`.
    public static let droppedWhileDoNotDisturb = BridgeCloseReason(rawValue: 5)

    /// Every reason this version names, in order.
    public static let all: [BridgeCloseReason] = [expired, dismissed, withdrawn, other, droppedWhileDoNotDisturb]

    /// What the reason means, for the interface's reference; empty for a number this version does not name.
    public var meaning: String {
        switch rawValue {
        case 1: "expired"
        case 2: "dismissed by the user"
        case 3: "withdrawn or closed after a response"
        case 4: "other"
        case 5: "dropped while the desktop's do-not-disturb was on"
        default: ""
        }
    }

    /// The number, and what it means.
    public var description: String { meaning.isEmpty ? "\(rawValue)" : "\(rawValue) (\(meaning))" }
}
