import DBusCore
import FreedesktopNotifications

/// The D-Bus description of `org.freedesktop.Notifications`, which both routes calls and answers `Introspect`.
extension NotificationServer {
    /// The interface as `profile` serves it: the four methods, and only the signals the profile can emit.
    ///
    /// The handlers hold `server` weakly, so an exported object never keeps a dropped server alive.
    static func interface(for profile: NotificationServerProfile, server: NotificationServer) -> DBusInterface {
        let gone = DBusFailure(
            name: DBusFailure.Name.failed, message: "the notification server has been released; start a new one")
        let methods = [
            DBusMethod(FreedesktopNames.Method.getCapabilities.rawValue, outputs: [.init("capabilities", "as")]) {
                [weak server] call in
                guard let server else { throw gone }
                return try await server.getCapabilities(call)
            },
            DBusMethod.deferred(
                FreedesktopNames.Method.notify.rawValue,
                inputs: [
                    .init("app_name", "s"), .init("replaces_id", "u"), .init("app_icon", "s"), .init("summary", "s"),
                    .init("body", "s"), .init("actions", "as"), .init("hints", "a{sv}"),
                    .init("expire_timeout", "i"),
                ],
                outputs: [.init("id", "u")]
            ) { [weak server] call in
                guard let server else { return call.fail(gone) }
                if await server.delayNotify(call) { await server.notify(call) }
            },
            DBusMethod(FreedesktopNames.Method.closeNotification.rawValue, inputs: [.init("id", "u")]) {
                [weak server] call in
                guard let server else { throw gone }
                return try await server.closeNotification(call)
            },
            DBusMethod(
                FreedesktopNames.Method.getServerInformation.rawValue,
                outputs: [.init("name", "s"), .init("vendor", "s"), .init("version", "s"), .init("spec_version", "s")]
            ) { [weak server] call in
                guard let server else { throw gone }
                return try await server.getServerInformation(call)
            },
        ]
        var signals = [
            DBusSignalDescription(
                ServerSignal.Member.notificationClosed.rawValue, arguments: [.init("id", "u"), .init("reason", "u")]),
            DBusSignalDescription(
                ServerSignal.Member.actionInvoked.rawValue, arguments: [.init("id", "u"), .init("action_key", "s")]),
        ]
        if profile.sendsActivationTokenBeforeAction {
            signals.append(
                DBusSignalDescription(
                    ServerSignal.Member.activationToken.rawValue,
                    arguments: [.init("id", "u"), .init("activation_token", "s")]))
        }
        if profile.supportsInlineReply {
            signals.append(
                DBusSignalDescription(
                    ServerSignal.Member.notificationReplied.rawValue, arguments: [.init("id", "u"), .init("text", "s")])
            )
        }
        return DBusInterface(interfaceName, methods: methods, signals: signals)
    }
}
