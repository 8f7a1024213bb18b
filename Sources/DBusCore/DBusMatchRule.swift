/// Which signals a subscription receives: any field left `nil` matches everything.
///
/// The rule is sent to the bus (`AddMatch`) so the bus forwards those signals, and the same rule picks out, on this
/// side, which subscription each signal belongs to. A `sender` may be a well-known name: it then matches the name's
/// current owner, followed as the owner changes.
public struct DBusMatchRule: Sendable, Hashable, CustomStringConvertible {
    /// The sending connection: a unique name or a well-known name.
    public var sender: String?
    /// The object path the signal comes from.
    public var path: DBusObjectPath?
    /// The signal's interface.
    public var interface: String?
    /// The signal's name.
    public var member: String?
    /// The value of the first argument, when it is a string.
    public var arg0: String?

    /// Makes a rule.
    public init(
        sender: String? = nil, path: DBusObjectPath? = nil, interface: String? = nil, member: String? = nil,
        arg0: String? = nil
    ) {
        self.sender = sender
        self.path = path
        self.interface = interface
        self.member = member
        self.arg0 = arg0
    }

    /// The rule in the bus's text form, for example `type='signal',interface='org.example.I',member='Changed'`.
    public var description: String {
        var parts = ["type='signal'"]
        if let sender { parts.append("sender=" + Self.quote(sender)) }
        if let path { parts.append("path=" + Self.quote(path.rawValue)) }
        if let interface { parts.append("interface=" + Self.quote(interface)) }
        if let member { parts.append("member=" + Self.quote(member)) }
        if let arg0 { parts.append("arg0=" + Self.quote(arg0)) }
        return parts.joined(separator: ",")
    }

    /// Quotes a value; a `'` inside is written as `'\''`, the only escape match rules have.
    private static func quote(_ value: String) -> String {
        "'" + value.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }

    func validate() throws(DBusFailure) {
        if let sender { try DBusNames.checkBusName(sender) }
        if let interface { try DBusNames.checkInterface(interface) }
        if let member { try DBusNames.checkMember(member) }
        if let arg0, arg0.utf8.contains(0) { throw .invalidArgs("arg0 cannot contain a NUL character") }
    }

    /// Whether `signal` matches, given the unique name that currently owns `sender` when it is a well-known name.
    func matches(_ signal: DBusSignal, senderOwner: String?) -> Bool {
        if let sender {
            let expected = sender.hasPrefix(":") ? sender : senderOwner
            guard signal.sender == expected || signal.sender == sender else { return false }
        }
        if let path, signal.path != path { return false }
        if let interface, signal.interface != interface { return false }
        if let member, signal.member != member { return false }
        if let arg0 {
            guard case .string(let first)? = signal.arguments.first, first == arg0 else { return false }
        }
        return true
    }
}

/// A signal received from the bus.
public struct DBusSignal: Sendable, Hashable {
    /// The unique name of the connection that sent it.
    public var sender: String
    /// The object path it was emitted from.
    public var path: DBusObjectPath
    /// Its interface.
    public var interface: String
    /// Its name.
    public var member: String
    /// Its arguments.
    public var arguments: [DBusValue]
    /// The connection it was sent to, or `nil` when it was broadcast.
    public var destination: String?

    /// Makes a signal value (useful in tests).
    public init(
        sender: String, path: DBusObjectPath, interface: String, member: String, arguments: [DBusValue],
        destination: String? = nil
    ) {
        self.sender = sender
        self.path = path
        self.interface = interface
        self.member = member
        self.arguments = arguments
        self.destination = destination
    }
}
