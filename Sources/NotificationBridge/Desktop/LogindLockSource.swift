import DBusCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// logind on the system bus: the `LockedHint` property of the bridge's session, which GNOME Shell and KDE's screen
/// locker set.
enum LogindLockSource {
    static let busName = "org.freedesktop.login1"
    static let managerPath: DBusObjectPath = "/org/freedesktop/login1"
    static let managerInterface = "org.freedesktop.login1.Manager"
    static let sessionInterface = "org.freedesktop.login1.Session"
    static let propertiesInterface = "org.freedesktop.DBus.Properties"

    /// Connects to the session's `LockedHint`, or returns `nil` when logind does not answer or knows no session for
    /// this process.
    static func open(on system: DBusConnection, timeout: Duration) async -> LockSource? {
        guard let session = await sessionPath(on: system, timeout: timeout) else { return nil }
        let read: @Sendable () async throws -> Bool = {
            let reply = try await system.call(
                destination: busName, path: session, interface: propertiesInterface, method: "Get",
                arguments: [.string(sessionInterface), .string("LockedHint")], timeout: timeout)
            guard case .boolean(let locked)? = reply.first?.unwrappedVariant else {
                throw DBusFailure(name: DBusFailure.Name.invalidArgs, message: "LockedHint is not a boolean")
            }
            return locked
        }
        do {
            // Subscribe before reading, so a change between the two is not missed.
            let signals = try await system.signals(
                matching: DBusMatchRule(
                    sender: busName, path: session, interface: propertiesInterface, member: "PropertiesChanged",
                    arg0: sessionInterface))
            let owners = try await system.nameOwnerChanges(of: busName)
            let initial = try await read()
            return LockSource(
                busName: busName, initial: initial, read: read, signals: signals, ownerChanges: owners,
                interpret: interpret)
        } catch {
            return nil
        }
    }

    /// The session object: `GetSession("auto")` first (the caller's session, or else the user's graphical session —
    /// the answer for a daemon started by systemd or D-Bus outside any session), then `GetSessionByPID`.
    private static func sessionPath(on system: DBusConnection, timeout: Duration) async -> DBusObjectPath? {
        let attempts: [(String, DBusValue)] = [
            ("GetSession", .string("auto")), ("GetSessionByPID", .uint32(UInt32(truncatingIfNeeded: getpid()))),
        ]
        for (method, argument) in attempts {
            let reply = try? await system.call(
                destination: busName, path: managerPath, interface: managerInterface, method: method,
                arguments: [argument], timeout: timeout)
            if case .objectPath(let path)? = reply?.first { return path }
        }
        return nil
    }

    /// `PropertiesChanged(s interface, a{sv} changed, as invalidated)` of the session.
    static func interpret(_ signal: DBusSignal) -> LockSource.Change {
        guard signal.arguments.count == 3, let changed = signal.arguments[1].stringKeyedEntries else {
            return .unrelated
        }
        if case .boolean(let locked)? = changed["LockedHint"]?.unwrappedVariant { return .locked(locked) }
        if case .array(_, let invalidated) = signal.arguments[2], invalidated.contains(.string("LockedHint")) {
            return .reread
        }
        return .unrelated
    }
}
