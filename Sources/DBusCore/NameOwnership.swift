/// Bus names: owning them, and watching who owns others.
extension DBusConnection {
    /// Flags for ``requestName(_:flags:)``, as in `org.freedesktop.DBus.RequestName`.
    public struct NameRequestFlags: OptionSet, Sendable, Hashable {
        /// The flags as the bus takes them.
        public let rawValue: UInt32
        /// Makes flags from the bus's bits.
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// Let another connection that asks with ``replaceExisting`` take the name (`DBUS_NAME_FLAG_ALLOW_REPLACEMENT`).
        public static let allowReplacement = NameRequestFlags(rawValue: 0x1)
        /// Take the name from its owner if it allows replacement (`DBUS_NAME_FLAG_REPLACE_EXISTING`).
        public static let replaceExisting = NameRequestFlags(rawValue: 0x2)
        /// Do not wait in the queue when the name is taken (`DBUS_NAME_FLAG_DO_NOT_QUEUE`).
        public static let doNotQueue = NameRequestFlags(rawValue: 0x4)
    }

    /// What the bus answered to ``requestName(_:flags:)``.
    public enum NameRequestReply: UInt32, Sendable {
        /// This connection now owns the name.
        case primaryOwner = 1
        /// The name is taken; this connection waits in its queue.
        case inQueue = 2
        /// The name is taken and this connection did not queue.
        case exists = 3
        /// This connection already owned the name.
        case alreadyOwner = 4
    }

    /// What the bus answered to ``releaseName(_:)``.
    public enum NameReleaseReply: UInt32, Sendable {
        case released = 1
        case nonExistent = 2
        case notOwner = 3
    }

    /// A change of this connection's own names.
    public enum NameEvent: Sendable, Hashable {
        /// This connection became the owner of the name.
        case acquired(String)
        /// This connection no longer owns the name.
        case lost(String)
    }

    static let busName = "org.freedesktop.DBus"
    static let busPath: DBusObjectPath = "/org/freedesktop/DBus"

    private func callBus(_ method: String, _ arguments: [DBusValue]) async throws -> [DBusValue] {
        try await call(
            destination: Self.busName, path: Self.busPath, interface: Self.busName, method: method,
            arguments: arguments)
    }

    /// Asks the bus for a well-known name.
    public func requestName(_ name: String, flags: NameRequestFlags = []) async throws -> NameRequestReply {
        try DBusNames.checkBusName(name)
        let code = try await callBus("RequestName", [.string(name), .uint32(flags.rawValue)]).decode(UInt32.self)
        guard let reply = NameRequestReply(rawValue: code) else {
            throw DBusFailure(name: DBusFailure.Name.failed, message: "unknown RequestName reply \(code)")
        }
        return reply
    }

    /// Gives a well-known name back to the bus.
    @discardableResult
    public func releaseName(_ name: String) async throws -> NameReleaseReply {
        try DBusNames.checkBusName(name)
        let code = try await callBus("ReleaseName", [.string(name)]).decode(UInt32.self)
        guard let reply = NameReleaseReply(rawValue: code) else {
            throw DBusFailure(name: DBusFailure.Name.failed, message: "unknown ReleaseName reply \(code)")
        }
        return reply
    }

    /// Events for the names this connection gains and loses (`NameAcquired`, `NameLost`), from now on.
    public func nameEvents() async throws -> AsyncStream<NameEvent> {
        let rule = DBusMatchRule(sender: Self.busName, path: Self.busPath, interface: Self.busName)
        let own = uniqueName
        return try await signals(matching: rule) { signal in
            guard case .string(let name)? = signal.arguments.first, name != own else { return nil }
            switch signal.member {
            case "NameAcquired": return .acquired(name)
            case "NameLost": return .lost(name)
            default: return nil
            }
        }
    }

    /// The unique name that owns `name` now, or `nil` when nobody does.
    public func nameOwner(of name: String) async throws -> String? {
        try DBusNames.checkBusName(name)
        do {
            return try await callBus("GetNameOwner", [.string(name)]).decode(String.self)
        } catch let failure as DBusFailure where failure.name == DBusFailure.Name.nameHasNoOwner {
            return nil
        }
    }

    /// Each change of owner of `name` from now on: the new owner's unique name, or `nil` when the name was released.
    ///
    /// Subscribe first, then read the current owner with ``nameOwner(of:)``, so no change is missed in between.
    public func nameOwnerChanges(of name: String) async throws -> AsyncStream<String?> {
        try DBusNames.checkBusName(name)
        let rule = DBusMatchRule(
            sender: Self.busName, path: Self.busPath, interface: Self.busName, member: "NameOwnerChanged", arg0: name)
        return try await signals(matching: rule) { signal -> String?? in
            guard signal.arguments.count == 3, case .string(let newOwner) = signal.arguments[2] else { return nil }
            return .some(newOwner.isEmpty ? nil : newOwner)
        }
    }

    /// The process id of the connection that owns `name` (`GetConnectionUnixProcessID`).
    public func processID(of name: String) async throws -> UInt32 {
        try DBusNames.checkBusName(name)
        return try await callBus("GetConnectionUnixProcessID", [.string(name)]).decode(UInt32.self)
    }

    /// Whether any connection owns `name`.
    public func nameHasOwner(_ name: String) async throws -> Bool {
        try DBusNames.checkBusName(name)
        return try await callBus("NameHasOwner", [.string(name)]).decode(Bool.self)
    }
}
