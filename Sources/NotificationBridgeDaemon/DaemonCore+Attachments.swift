import DBusCore
import NotificationBridge
import NotificationBridgeAPI
import NotificationModel

/// Running apps (`Attach`, `Detach`, `Present`): where responses go when the posting connection has gone, and
/// scheduled notifications handed to an app that is frontmost instead of being shown.
extension DaemonCore {
    /// `Attach(s app_name, a{sv} options)`: the caller is app `appName` from now until it leaves the bus or calls
    /// `Detach`; a second `Attach` updates the options.
    func attach(appName: String, options: DBusValue, sender: String) async throws(DBusFailure) -> [DBusValue] {
        try checkRunning()
        try Self.checkAppName(appName)
        try checkAccess(toApp: appName, by: await peer(of: sender), "attach as")
        let reader = try VariantDictionary(options, place: "options", keys: AttachOptionKeys.all)
        let foreground = try reader.decode(AttachOptionKeys.foreground) ?? false
        let names = attachments.names(of: sender)
        if !names.contains(appName), names.count >= Self.maximumAttachmentsPerConnection {
            throw BridgeError.limitExceeded.failure(
                "this connection is attached as \(names.count) apps, the most one connection may; call Detach for "
                    + "those it no longer runs as")
        }
        guard attachments.attach(.init(connection: sender, foreground: foreground), as: appName) else {
            throw DBusFailure(
                name: BridgeError.limitExceeded,
                message: "\(Attachments.maximumApps) apps are attached, the most allowed; detach unused ones first")
        }
        logger.debug(
            "attached",
            metadata: [
                "notification.app": "\(appName)", "dbus.sender": "\(sender)", "app.foreground": "\(foreground)",
            ])
        return []
    }

    /// `Detach(s app_name)`.
    func detach(appName: String, sender: String) throws(DBusFailure) -> [DBusValue] {
        try checkRunning()
        guard attachments.detach(sender, from: appName) else {
            throw DBusFailure(
                name: BridgeError.unknownApp,
                message: "this connection is not attached as app \(quotedForMessage(appName)); call Attach first")
        }
        return []
    }

    /// `Present(s id)`: shows a scheduled notification that was handed to its frontmost app, as if the app were not
    /// running; only that app's attached connection may ask. Answered when the server has it.
    func present(id: String, call: DBusMethodCall) async throws(DBusFailure) {
        try checkRunning()
        try NotificationID.check(id)
        guard case .handedToApp(let handed)? = table[id]?.phase else {
            if table[id]?.isOnServer != true, (try? await storedEnded(id)) != nil {
                return try await presentAgain(call, id: id)
            }
            throw DBusFailure(
                name: BridgeError.unknownNotification,
                message: "notification \(quotedForMessage(id)) was not handed to an app (or long ago); Present takes "
                    + "the id of a Fired signal")
        }
        let appName = handed.content.appName ?? defaultAppName
        guard attachments.current(for: appName)?.connection == call.sender else {
            throw DBusFailure(
                name: BridgeError.unknownApp,
                message: "notification \(quotedForMessage(id)) belongs to app \(quotedForMessage(appName)); only the "
                    + "connection attached as that app may present it")
        }
        let category = await category(of: handed.content)
        let delivery = Delivery(.present, id: id, content: handed.content, category: category, hints: handed.hints)
        do {
            try await deliver(delivery) { () throws(DBusFailure) -> DeliveryAdmission in
                // Presented by another call while this one's settings were read: it is shown once.
                guard case .handedToApp? = table[id]?.phase else {
                    throw DBusFailure(
                        name: BridgeError.unknownNotification,
                        message: "notification \(quotedForMessage(id)) was presented already")
                }
                table.update(id) { $0.reportsDismissal = category?.reportsDismissal ?? false }
                apply(.sent, to: id)
                return .answering(call)
            }
        } catch {
            throw error.presentFailure(of: id)
        }
    }

    /// Hands a scheduled notification that fired to its app when the app is attached in the foreground.
    ///
    /// - Returns: whether it was handed over (and must not be shown).
    func handToForegroundApp(_ id: String, _ post: ScheduledPost) -> Bool {
        let appName = post.content.appName ?? defaultAppName
        guard let attachment = attachments.current(for: appName), attachment.foreground else { return false }
        let route: ResponseRoute? = if case .poster = post.route { nil } else { post.route }
        guard let listed = ListedNotification(NotificationCoding.encode(id: id, content: post.content, route: route))
        else { return false }
        do {
            try connection.emit(.fired(listed), to: attachment.connection)
        } catch {
            return false
        }
        logger.debug(
            "handed to the frontmost app",
            metadata: [
                "notification.id": "\(id)", "notification.app": "\(appName)", "dbus.sender": "\(attachment.connection)",
            ])
        return true
    }

    private static func checkAppName(_ appName: String) throws(DBusFailure) {
        guard !appName.isEmpty, appName.utf8.count <= 256 else {
            throw BridgeError.invalid(
                "app name \(quotedForMessage(appName)) must be 1 to 256 bytes; use the 'app-name' your notifications "
                    + "are posted under")
        }
    }
}
