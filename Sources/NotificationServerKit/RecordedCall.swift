import DBusCore

/// One method call a ``NotificationServer`` received, with its arguments exactly as they arrived.
public struct RecordedCall: Sendable, Hashable, CustomStringConvertible {
    /// The method name, such as `Notify`.
    public var member: String
    /// The unique bus name of the caller.
    public var sender: String
    /// The arguments, untouched by the profile's rules.
    public var arguments: [DBusValue]

    /// Makes a record.
    public init(member: String, sender: String, arguments: [DBusValue]) {
        self.member = member
        self.sender = sender
        self.arguments = arguments
    }

    /// The call in GVariant text, as `gdbus call` shows arguments: `Notify('app', uint32 0, …) from :1.4`.
    public var description: String {
        "\(member)\(arguments.gvariantTupleText) from \(sender)"
    }
}
