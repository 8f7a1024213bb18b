/// A D-Bus error: a name such as `org.freedesktop.DBus.Error.UnknownMethod` and a human-readable message.
///
/// Thrown for error replies from a peer, for local problems (an invalid argument, a closed connection, a timeout),
/// and thrown by method handlers to answer a call with an error.
public struct DBusFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The D-Bus error name.
    public var name: String
    /// The message that comes with it.
    public var message: String

    /// Makes a failure with an error name and a message.
    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    /// The error name and the message, as `name: message`.
    public var description: String { "\(name): \(message)" }

    /// Well-known error names of the D-Bus specification.
    public enum Name {
        /// `org.freedesktop.DBus.Error.Failed`.
        public static let failed = "org.freedesktop.DBus.Error.Failed"
        /// `org.freedesktop.DBus.Error.NoReply`.
        public static let noReply = "org.freedesktop.DBus.Error.NoReply"
        /// `org.freedesktop.DBus.Error.Timeout`.
        public static let timeout = "org.freedesktop.DBus.Error.Timeout"
        /// `org.freedesktop.DBus.Error.Disconnected`.
        public static let disconnected = "org.freedesktop.DBus.Error.Disconnected"
        /// `org.freedesktop.DBus.Error.InvalidArgs`.
        public static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
        /// `org.freedesktop.DBus.Error.InvalidSignature`.
        public static let invalidSignature = "org.freedesktop.DBus.Error.InvalidSignature"
        /// `org.freedesktop.DBus.Error.UnknownMethod`.
        public static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
        /// `org.freedesktop.DBus.Error.UnknownObject`.
        public static let unknownObject = "org.freedesktop.DBus.Error.UnknownObject"
        /// `org.freedesktop.DBus.Error.UnknownInterface`.
        public static let unknownInterface = "org.freedesktop.DBus.Error.UnknownInterface"
        /// `org.freedesktop.DBus.Error.UnknownProperty`.
        public static let unknownProperty = "org.freedesktop.DBus.Error.UnknownProperty"
        /// `org.freedesktop.DBus.Error.PropertyReadOnly`.
        public static let propertyReadOnly = "org.freedesktop.DBus.Error.PropertyReadOnly"
        /// `org.freedesktop.DBus.Error.ServiceUnknown`.
        public static let serviceUnknown = "org.freedesktop.DBus.Error.ServiceUnknown"
        /// `org.freedesktop.DBus.Error.NameHasNoOwner`.
        public static let nameHasNoOwner = "org.freedesktop.DBus.Error.NameHasNoOwner"
        /// `org.freedesktop.DBus.Error.AccessDenied`.
        public static let accessDenied = "org.freedesktop.DBus.Error.AccessDenied"
        /// `org.freedesktop.DBus.Error.NoMemory`.
        public static let noMemory = "org.freedesktop.DBus.Error.NoMemory"
        /// `org.freedesktop.DBus.Error.NotSupported`.
        public static let notSupported = "org.freedesktop.DBus.Error.NotSupported"
    }

    static func invalidArgs(_ message: String) -> DBusFailure { DBusFailure(name: Name.invalidArgs, message: message) }

    static func invalidSignature(_ message: String) -> DBusFailure {
        DBusFailure(name: Name.invalidSignature, message: message)
    }

    static func disconnected(_ message: String = "the connection to the bus is closed") -> DBusFailure {
        DBusFailure(name: Name.disconnected, message: message)
    }
}
