import DBusCore
import FreedesktopNotifications

/// How one desktop's do-not-disturb is read: where its notification server (or its settings) keeps the switch, and
/// how a change of it is heard. ``DesktopDoNotDisturbWatcher`` picks one by the name the server gives in
/// `GetServerInformation`.
struct DoNotDisturbReader: Sendable {
    /// Whose switch it reads.
    let source: DesktopDoNotDisturb.Source
    /// Reads the switch, then each change of it, handing each reading to `report` (`nil`: not readable yet, while the
    /// server gets ready), until the task is cancelled, the server goes away, or (for a desktop that announces no
    /// change) once it has read it.
    let follow: @Sendable (_ report: @escaping @Sendable (Bool?) async -> Void) async throws -> Void
    /// Reads the switch once, for a desktop that announces no change of it; `nil` where ``follow`` hears every change.
    let read: (@Sendable () async throws -> Bool)?

    /// The reader for the server named `name` (as `GetServerInformation` gives it) at the unique bus name `owner`;
    /// `nil` for a server whose switch the bridge cannot read.
    static func forServer(
        named name: String, owner: String, connection: DBusConnection, settings: NotificationSettingsStore?
    ) -> DoNotDisturbReader? {
        switch name.lowercased() {
        case "dunst":
            return .property(
                source: .dunst, owner: owner, interface: "org.dunstproject.cmd0", name: "paused",
                connection: connection)
        case "plasma":
            return .property(
                source: .plasma, owner: owner, interface: FreedesktopNames.interface, name: "Inhibited",
                connection: connection)
        case "swaynotificationcenter":
            return .swayNotificationCenter(owner: owner, connection: connection)
        case "mako":
            return .mako(owner: owner, connection: connection)
        case "gnome-shell":
            return settings.map { .gnome(settings: $0) }
        default:
            return nil
        }
    }

    /// The object every server's switch is read on, but SwayNotificationCenter's and mako's.
    static let notificationsPath = FreedesktopNames.path

    /// A boolean property of the server's `/org/freedesktop/Notifications` object that announces its changes with
    /// `PropertiesChanged`: dunst's `paused` (`org.dunstproject.cmd0`), Plasma's `Inhibited`.
    static func property(
        source: DesktopDoNotDisturb.Source, owner: String, interface: String, name: String,
        connection: DBusConnection
    ) -> DoNotDisturbReader {
        DoNotDisturbReader(
            source: source,
            follow: { report in
                // Subscribed before the first read, so that no change in between is missed.
                let changes = try await connection.signals(
                    matching: DBusMatchRule(
                        sender: owner, path: notificationsPath, interface: "org.freedesktop.DBus.Properties",
                        member: "PropertiesChanged", arg0: interface)
                ) { signal -> Bool?? in
                    // `.some(nil)`: the property was invalidated, to be read again.
                    guard signal.arguments.count >= 2, let changed = signal.arguments[1].stringKeyedEntries else {
                        return nil
                    }
                    if case .boolean(let value)? = changed[name]?.unwrappedVariant { return .some(value) }
                    if signal.arguments.count >= 3, case .array(_, let invalidated) = signal.arguments[2],
                        invalidated.contains(.string(name))
                    {
                        return .some(nil)
                    }
                    return nil
                }
                let read = { @Sendable () async throws -> Bool in
                    try await readProperty(owner: owner, interface: interface, name: name, connection)
                }
                await report(try await firstReading(read, meanwhile: report))
                for await value in changes {
                    if let value { await report(value) } else { await report(try await read()) }
                }
            }, read: nil)
    }

    /// `org.freedesktop.DBus.Properties.Get` of a boolean property on `/org/freedesktop/Notifications`.
    static func readProperty(
        owner: String, interface: String, name: String, _ connection: DBusConnection
    ) async throws -> Bool {
        let reply = try await connection.call(
            destination: owner, path: notificationsPath, interface: "org.freedesktop.DBus.Properties",
            method: "Get", arguments: [.string(interface), .string(name)], timeout: readTimeout)
        guard case .boolean(let value)? = reply.first?.unwrappedVariant else {
            throw DBusFailure(
                name: "org.freedesktop.DBus.Error.InvalidSignature",
                message: "\(interface).\(name) is not a boolean")
        }
        return value
    }

    /// How long a server may take to say where its switch is.
    static let readTimeout: Duration = .seconds(5)

    /// Reads the switch of a server that has just taken the name, asking again for up to 5 s while the call fails:
    /// a server may own `org.freedesktop.Notifications` a moment before it exports the object that holds its switch
    /// (SwayNotificationCenter exports its control centre after it takes the name). After a first failure `meanwhile`
    /// is told that the switch is not readable yet, so that nobody waits on it.
    static func firstReading(
        _ read: @Sendable () async throws -> Bool, meanwhile: @Sendable (Bool?) async -> Void
    ) async throws -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(5)
        var failed = false
        while true {
            do {
                return try await read()
            } catch {
                guard clock.now < deadline, !Task.isCancelled else { throw error }
                if !failed { await meanwhile(nil) }
                failed = true
                try await Task.sleep(for: .milliseconds(250))
            }
        }
    }
}
