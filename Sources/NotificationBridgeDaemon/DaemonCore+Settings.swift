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

    func getSettings(_ app: String, caller: String) async throws(DBusFailure) -> [DBusValue] {
        try checkRunning()
        if !app.isEmpty { try checkAccess(toApp: app, by: await peer(of: caller), "read the settings of") }
        return [
            app.isEmpty ? await globalSettings().entries.value : await settings.store.record(for: app).entries.value
        ]
    }

    /// The settings of every app; a sandboxed app sees only its own.
    func listSettings(caller: String) async throws(DBusFailure) -> [DBusValue] {
        try checkRunning()
        let peer = await peer(of: caller)
        let records = await settings.store.records().filter { record in
            (try? checkAccess(toApp: record.app, by: peer, "list")) != nil
        }
        return [.array(element: "a{sv}", records.map(\.entries.value))]
    }

    /// `SetSettings`: the user's choices are made by the host (a settings app, the CLI); a sandboxed app may state
    /// only what it asks for (`requested`), for itself.
    func setSettings(_ app: String, _ value: DBusValue, caller: String) async throws(DBusFailure) {
        try checkRunning()
        let change = try SettingsChange(value)
        let peer = await peer(of: caller)
        if peer.isSandboxed {
            try checkAccess(toApp: app, by: peer, "change the settings of")
            var choices = change
            choices.requested = nil
            if !choices.isEmpty {
                throw Self.denied(
                    peer, "cannot change the user's choices (only '\(SettingsKeys.requested.name)')",
                    instead: "ask the user to change them in the settings, or with notification-bridge settings")
            }
        }
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
        let announcement: SettingsAnnouncement =
            if let app {
                .app(await settings.store.record(for: app))
            } else {
                await globalSettings()
            }
        let key = announcement.appID
        let entries = announcement.entries
        guard announcedSettings[key] != entries else { return }
        announcedSettings[key] = entries
        try? connection.emit(.settingsChanged(announcement), to: nil)
    }

    /// What the user's settings make of `content` (of `category`) on its way to the server, with the snooze buttons
    /// it offers (``offeringSnooze(_:category:repeats:)``; none for one that `repeats`) unless the settings take them
    /// away, and the app's flood limit; the app is listed among those that posted (the first time it posts, and again
    /// after the settings changed). Every way a notification reaches the server with its settings applied comes
    /// through here.
    ///
    /// - Throws: `Error.NotAllowed`, saying which setting and how to change it, when nothing may be shown.
    func allowedBySettings(
        _ content: NotificationContent, category: NotificationCategory?, repeats: Bool = false
    ) async throws(DBusFailure) -> (content: NotificationContent, floodLimit: FloodLimit) {
        let content = Self.offeringSnooze(content, category: category, repeats: repeats)
        let app = settingsApp(of: content)
        let record = await settings.record(for: app)
        do {
            let session = self.session
            let shaped = try await record.shape(content, sessionLocked: lockMonitor.isLockedNow) {
                session.latestServerInformation.name
            }
            return (shaped, record.settings.floodLimit)
        } catch {
            throw DBusFailure(name: BridgeError.notAllowed, message: error.description)
        }
    }

    /// The settings of no app in particular: do-not-disturb, and where the settings are kept.
    private func globalSettings() async -> SettingsAnnouncement {
        let record = await settings.store.record(for: "")
        return .global(doNotDisturb: record.doNotDisturb, source: record.source)
    }
}
