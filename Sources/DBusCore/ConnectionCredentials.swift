/// What the bus knows of the process behind a connection (`GetConnectionCredentials`).
///
/// The bus reads these from the socket when the connection is made (`SO_PEERCRED`, `SO_PEERSEC`), so a peer cannot
/// choose them. Each is `nil` when the bus did not report it. Keys this type does not know, and known keys of a type
/// other than the specification's, are left out: a bus that reports more never makes a peer unknown.
public struct ConnectionCredentials: Sendable, Hashable {
    /// `ProcessID`: the process that opened the connection.
    public var processID: UInt32?
    /// `ProcessFD`: a pidfd of that process (dbus-daemon 1.15.8 and later, dbus-broker 35 and later), which refers to
    /// it and to no process that later gets the same id. Only on a connection that can pass file descriptors.
    public var processFD: DBusFileDescriptor?
    /// `UnixUserID`: its user.
    public var userID: UInt32?
    /// `LinuxSecurityLabel`: its security label (AppArmor's or SELinux's), without the trailing NUL byte.
    public var securityLabel: String?

    /// Credentials as given.
    public init(
        processID: UInt32? = nil, processFD: DBusFileDescriptor? = nil, userID: UInt32? = nil,
        securityLabel: String? = nil
    ) {
        self.processID = processID
        self.processFD = processFD
        self.userID = userID
        self.securityLabel = securityLabel
    }

    /// Reads the `a{sv}` the bus answers with; keys this type does not know are left out.
    public init(_ value: DBusValue) {
        let entries = value.stringKeyedEntries ?? [:]
        if case .uint32(let pid)? = entries["ProcessID"]?.unwrappedVariant { processID = pid }
        if case .unixFD(let descriptor)? = entries["ProcessFD"]?.unwrappedVariant { processFD = descriptor }
        if case .uint32(let uid)? = entries["UnixUserID"]?.unwrappedVariant { userID = uid }
        if case .array(_, let elements)? = entries["LinuxSecurityLabel"]?.unwrappedVariant {
            let bytes = elements.compactMap { element -> UInt8? in
                if case .byte(let byte) = element { return byte }
                return nil
            }
            let text = bytes.prefix { $0 != 0 }
            securityLabel = String(decoding: text, as: UTF8.self)
        }
    }
}

extension DBusConnection {
    /// What the bus knows of the process behind the connection `name` (`GetConnectionCredentials`).
    ///
    /// - Throws: `DBusFailure` when `name` has no owner or the bus refuses.
    public func credentials(of name: String) async throws -> ConnectionCredentials {
        try DBusNames.checkBusName(name)
        let reply = try await call(
            destination: Self.busName, path: Self.busPath, interface: Self.busName,
            method: "GetConnectionCredentials", arguments: [.string(name)])
        guard let value = reply.first else {
            throw DBusFailure(name: DBusFailure.Name.failed, message: "GetConnectionCredentials answered nothing")
        }
        return ConnectionCredentials(value)
    }
}
