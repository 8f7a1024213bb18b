import DBusCore
import FoundationEssentials
import NotificationBridge
import NotificationBridgeAPI
import NotificationModel

/// The user's notification settings: `GetSettings`, `SetSettings`, `ListSettings`, `SettingsChanged`, and what they
/// do to a notification on its way to the server.
extension DaemonCore {
    /// The name an app's settings go under: its desktop id when it gives one, else its app name.
    func settingsApp(of content: NotificationContent) -> String {
        content.settingsApp(fallback: defaultAppName)
    }

    func getSettings(_ app: String) async throws(DBusFailure) -> [DBusValue] {
        try checkRunning()
        return [app.isEmpty ? await globalSettings().value : await settings.store.record(for: app).entries.value]
    }

    func listSettings() async throws(DBusFailure) -> [DBusValue] {
        try checkRunning()
        return [.array(element: "a{sv}", await settings.store.records().map(\.entries.value))]
    }

    func setSettings(_ app: String, _ value: DBusValue) async throws(DBusFailure) {
        try checkRunning()
        let change = try SettingsChange(value)
        var appChange = change
        appChange.doNotDisturb = nil
        if app.isEmpty, !appChange.isEmpty {
            throw BridgeError.invalid(
                "settings of no app: give the app's desktop id or app name (ListSettings lists them); only "
                    + "'\(SettingsKeys.doNotDisturb.name)' may be set without one")
        }
        do {
            try await settings.store.apply(change, to: app.isEmpty ? nil : app)
            // A Post that follows at once sees the change, whenever the store's report of it comes.
            settings.forget(app.isEmpty ? nil : app)
        } catch {
            switch error.kind {
            case .invalidApp: throw BridgeError.invalid(error.description)
            case .cannotWrite: throw DBusFailure(name: BridgeError.serverError, message: error.description)
            }
        }
        logger.info("notification settings changed", metadata: ["settings.app": "\(app)"])
    }

    /// Announces the settings of `app` (`nil`: the global ones) with `SettingsChanged`, unless they are what was
    /// announced last.
    func settingsChanged(app: String?) async {
        let entries = app == nil ? await globalSettings() : await settings.store.record(for: app ?? "").entries
        let key = app ?? ""
        guard announcedSettings[key] != entries else { return }
        announcedSettings[key] = entries
        try? connection.emit(
            path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName, member: "SettingsChanged",
            arguments: [.string(key), entries.value])
    }

    /// What the user's settings make of `content` on its way to the server; the app is listed among those that
    /// posted (the first time it posts, and again after the settings changed).
    ///
    /// - Throws: `Error.NotAllowed`, saying which setting and how to change it, when nothing may be shown.
    func allowedBySettings(_ content: NotificationContent) async throws(DBusFailure) -> NotificationContent {
        let app = settingsApp(of: content)
        let record = await settings.record(for: app)
        do {
            let center = self.center
            return try await record.shape(content, sessionLocked: center.isSessionLocked) {
                await center.serverInformation().name
            }
        } catch {
            throw DBusFailure(name: BridgeError.notAllowed, message: error.description)
        }
    }

    /// The settings of no app in particular: do-not-disturb, and where the settings are kept.
    private func globalSettings() async -> WireEntries {
        let record = await settings.store.record(for: "")
        var global = WireEntries()
        global[SettingsKeys.doNotDisturb] = record.doNotDisturb
        global[SettingsKeys.source] = record.source
        return global
    }
}
