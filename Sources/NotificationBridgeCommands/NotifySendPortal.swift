import DBusCore

/// notify-send's notification as libnotify posts it from a sandbox: `AddNotification` on the desktop portal's
/// `org.freedesktop.portal.Notification`, under the id `libnotify-APP-notify-send-N` (N is `-r`'s number, else 1),
/// with the title, body, priority, icon and buttons; the portal has no app name, app icon, category, hints or
/// timeout. An `ActionInvoked` for that id ends a wait, as the portal has no signal for a close.
struct NotifySendPortal: NotifySendServer {
    let connection: DBusConnection
    /// The app part of the notification ids (``NotifySendSandbox/portalAppID``).
    let appID: String

    static let busName = "org.freedesktop.portal.Desktop"
    static let path: DBusObjectPath = "/org/freedesktop/portal/desktop"
    static let interface = "org.freedesktop.portal.Notification"

    var clickKey: String { "default-action" }

    /// The portal on `connection`, or `nil` when none answers with its interface's version (libnotify then uses the
    /// notification server).
    static func connect(_ connection: DBusConnection, appID: String) async -> NotifySendPortal? {
        let version = try? await connection.call(
            destination: busName, path: path, interface: "org.freedesktop.DBus.Properties", method: "Get",
            arguments: [.string(interface), .string("version")])
        guard case .uint32(let number)? = version?.first?.unwrappedVariant, number > 0 else { return nil }
        return NotifySendPortal(connection: connection, appID: appID)
    }

    /// The portal's id of notification number `number`.
    func id(_ number: UInt32) -> String {
        "libnotify-\(appID)-\(NotifySend.programName)-\(number)"
    }

    func supportsActions() async throws -> Bool { true }

    func signals() async throws -> AsyncStream<NotifySendServerSignal> {
        let rule = DBusMatchRule(
            sender: Self.busName, path: Self.path, interface: Self.interface, member: "ActionInvoked")
        return try await connection.signals(matching: rule) { signal in
            guard signal.arguments.count == 3, case .string(let id) = signal.arguments[0],
                case .string(let action) = signal.arguments[1]
            else { return nil }
            // Whatever the action, the portal has closed the notification.
            return NotifySendServerSignal(notification: id, events: [.invoked(key: action), .closed])
        }
    }

    func show(_ notification: NotifySendNotification) async throws -> NotifySendShown {
        for (given, feature) in [(notification.appIcon, "App Icon"), (notification.category, "Category")]
        where given != nil {
            printError("\(feature) is not available when using Portal Notifications")
        }
        let content = try Self.content(of: notification)
        let number = notification.replacesID == 0 ? 1 : notification.replacesID
        if notification.replacesID != 0 {
            // libnotify takes the one it replaces away first.
            _ = try? await call("RemoveNotification", [.string(id(number))])
        }
        _ = try await call("AddNotification", [.string(id(number)), .vardict(content)])
        return NotifySendShown(printedID: Int32(bitPattern: number), key: id(number))
    }

    func close(_ shown: NotifySendShown) async {
        _ = try? await call("RemoveNotification", [.string(shown.key)])
    }

    /// The notification's `a{sv}` for `AddNotification`.
    ///
    /// - Throws: ``NotifySendShowFailure`` when the icon file cannot be read.
    static func content(of notification: NotifySendNotification) throws(NotifySendShowFailure) -> [String: DBusValue] {
        var content: [String: DBusValue] = ["title": .string(notification.summary), "body": .string(notification.body)]
        let priorities = ["low", "normal", "urgent"]
        if Int(notification.urgencyLevel) < priorities.count {
            content["priority"] = .string(priorities[Int(notification.urgencyLevel)])
        }
        let actions = notification.actions
        if actions.action(named: NotifySendActions.defaultName) != nil {
            content["default-action"] = .string(NotifySendActions.defaultName)
        }
        if actions.hasButtons {
            let buttons = actions.all.map {
                DBusValue.vardict(["action": .string($0.name), "label": .string($0.label)])
            }
            content["buttons"] = .array(element: "a{sv}", buttons)
        }
        if let image = notification.image { content["icon"] = try NotifySendPortalIcon.value(for: image) }
        return content
    }

    private func call(_ method: String, _ arguments: [DBusValue]) async throws -> [DBusValue] {
        do {
            return try await connection.call(
                destination: Self.busName, path: Self.path, interface: Self.interface, method: method,
                arguments: arguments)
        } catch let failure as DBusFailure {
            throw NotifySendShowFailure(message: "the desktop portal's \(method) failed: \(failure.message)")
        }
    }
}
