import DBusCore
import FreedesktopNotifications

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// notify-send's notification as libnotify sends it to `org.freedesktop.Notifications`: one `Notify` from the calling
/// process, which adds its own process id as `sender-pid`, names the image hint as the server's specification
/// version does, and takes the server's id as the notification's id.
struct NotifySendFreedesktop: NotifySendServer {
    let connection: DBusConnection
    /// The server's specification version, as `GetServerInformation` gave it.
    let specVersion: SpecVersion
    /// The `desktop-entry` a snap's notification names when it names none (`SNAP_APP`'s desktop file).
    let defaultDesktopEntry: String?

    var clickKey: String { NotifySendActions.defaultName }

    /// The specification version a server reports, as libnotify reads it (`MAJOR.MINOR`).
    struct SpecVersion: Comparable, Sendable {
        var major: Int
        var minor: Int

        /// Reads `text`; a version that cannot be read counts as the current one, 1.2.
        init(_ text: String) {
            let numbers = text.split(separator: ".", maxSplits: 1).map { Int($0.prefix { $0.isNumber }) }
            guard numbers.count == 2, let major = numbers[0], let minor = numbers[1], major > 0 else {
                self.init(major: 1, minor: 2)
                return
            }
            self.init(major: major, minor: minor)
        }

        init(major: Int, minor: Int) {
            self.major = major
            self.minor = minor
        }

        static func < (lhs: SpecVersion, rhs: SpecVersion) -> Bool {
            (lhs.major, lhs.minor) < (rhs.major, rhs.minor)
        }
    }

    /// Asks the server on `connection` for its specification version.
    ///
    /// - Throws: ``NotifySendShowFailure`` when no server answers.
    static func connect(_ connection: DBusConnection, defaultDesktopEntry: String?) async throws
        -> NotifySendFreedesktop
    {
        let values = try await call(connection, .getServerInformation)
        guard values.count == 4, case .string(let version) = values[3] else {
            throw NotifySendShowFailure(message: "the notification server's GetServerInformation answered \(values)")
        }
        return NotifySendFreedesktop(
            connection: connection, specVersion: SpecVersion(version), defaultDesktopEntry: defaultDesktopEntry)
    }

    func supportsActions() async throws -> Bool {
        let values = try await Self.call(connection, .getCapabilities)
        guard case .array(_, let capabilities)? = values.first else { return false }
        return capabilities.contains { $0.stringValue?.lowercased() == ServerCapability.actions.rawValue }
    }

    func signals() async throws -> AsyncStream<NotifySendServerSignal> {
        let rule = DBusMatchRule(
            sender: FreedesktopNames.busName, path: FreedesktopNames.path, interface: FreedesktopNames.interface)
        return try await connection.signals(matching: rule) { signal in
            switch ServerSignal(signal) {
            case .actionInvoked(let id, let key)?:
                NotifySendServerSignal(notification: String(id), events: [.invoked(key: key)])
            case .activationToken(let id, let token)?:
                NotifySendServerSignal(notification: String(id), events: [.activationToken(token)])
            case .closed(let id, _)?:
                NotifySendServerSignal(notification: String(id), events: [.closed])
            case .replied?, nil:
                nil
            }
        }
    }

    func show(_ notification: NotifySendNotification) async throws -> NotifySendShown {
        let request = Self.request(
            for: notification, specVersion: specVersion, defaultDesktopEntry: defaultDesktopEntry,
            senderPID: Int64(getpid()))
        let values = try await Self.call(connection, .notify, arguments: request.arguments)
        guard case .uint32(let id)? = values.first else {
            throw NotifySendShowFailure(message: "the notification server's Notify answered \(values), not an id")
        }
        return NotifySendShown(printedID: Int32(bitPattern: id), key: String(id))
    }

    func close(_ shown: NotifySendShown) async {
        guard let id = UInt32(shown.key) else { return }
        _ = try? await Self.call(connection, .closeNotification, arguments: [.uint32(id)])
    }

    /// The `Notify` call for `notification` from process `senderPID` to a server of `specVersion`, as libnotify makes
    /// it; `defaultDesktopEntry` is named when the notification names none.
    static func request(
        for notification: NotifySendNotification, specVersion: SpecVersion, defaultDesktopEntry: String?,
        senderPID: Int64
    ) -> NotifyRequest {
        typealias HintName = NotifySendNotification.HintName
        var appIcon = notification.appIcon
        var hints: [String: DBusValue] = [:]
        for (name, value) in notification.hints {
            switch name {
            case HintName.imagePath:
                if specVersion >= SpecVersion(major: 1, minor: 2) {
                    hints[name] = value
                } else if specVersion >= SpecVersion(major: 1, minor: 1) {
                    hints["image_path"] = value
                } else if appIcon == nil {
                    // Before 1.1 the image could only be the app's icon.
                    appIcon = value.stringValue
                }
            case HintName.imageData:
                let older = specVersion >= SpecVersion(major: 1, minor: 1) ? "image_data" : "icon_data"
                hints[specVersion >= SpecVersion(major: 1, minor: 2) ? name : older] = value
            default:
                hints[name] = value
            }
        }
        if hints[HintName.senderPID] == nil { hints[HintName.senderPID] = .int64(senderPID) }
        if let defaultDesktopEntry, hints[HintName.desktopEntry] == nil {
            hints[HintName.desktopEntry] = .string(defaultDesktopEntry)
        }
        return NotifyRequest(
            appName: notification.appName, replacesID: notification.replacesID, appIcon: appIcon ?? "",
            summary: notification.summary, body: notification.body,
            actions: notification.actions.all.flatMap { [$0.name, $0.label] }, hints: hints,
            expireTimeout: notification.expireTimeout)
    }

    private static func call(
        _ connection: DBusConnection, _ method: FreedesktopNames.Method, arguments: [DBusValue] = []
    ) async throws -> [DBusValue] {
        do {
            return try await connection.call(
                destination: FreedesktopNames.busName, path: FreedesktopNames.path,
                interface: FreedesktopNames.interface, method: method.rawValue, arguments: arguments)
        } catch let failure as DBusFailure {
            throw NotifySendShowFailure(message: Self.explain(failure))
        }
    }

    /// The bus's failure, with what to do about the usual ones.
    static func explain(_ failure: DBusFailure) -> String {
        switch failure.name {
        case DBusFailure.Name.serviceUnknown, DBusFailure.Name.nameHasNoOwner:
            "\(failure.message) (no notification server runs on this session bus; start one, such as dunst or "
                + "your desktop's, or check DBUS_SESSION_BUS_ADDRESS)"
        case DBusFailure.Name.noReply, DBusFailure.Name.timeout:
            "\(failure.message) (the notification server did not answer in time; it may be hung: restart it)"
        default:
            "\(failure.message) (\(failure.name))"
        }
    }
}
