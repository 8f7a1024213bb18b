import DBusCore
import FoundationEssentials
import NotificationBridge
import NotificationBridgeAPI
import NotificationModel

/// The user's notification settings: `GetSettings`, `SetSettings`, `ListSettings`, `SettingsChanged`, and what they
/// do to a notification on its way to the server.
extension DaemonCore {
    /// The line that replaces a notification's text on a locked screen when its app's lock-screen setting is
    /// `private`.
    static let privateBody = "New notification"

    /// The name an app's settings go under: its desktop id when it gives one, else its app name.
    func settingsApp(of content: NotificationContent) -> String {
        content.desktopEntry ?? content.appName ?? defaultAppName
    }

    func getSettings(_ app: String) async throws(DBusFailure) -> [DBusValue] {
        try checkRunning()
        return [app.isEmpty ? await globalSettings().value : await settings.record(for: app).entries.value]
    }

    func listSettings() async throws(DBusFailure) -> [DBusValue] {
        try checkRunning()
        return [.array(element: "a{sv}", await settings.records().map(\.entries.value))]
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
            try await settings.apply(change, to: app.isEmpty ? nil : app)
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
        let entries = app == nil ? await globalSettings() : await settings.record(for: app ?? "").entries
        let key = app ?? ""
        guard announcedSettings[key] != entries else { return }
        announcedSettings[key] = entries
        try? connection.emit(
            path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName, member: "SettingsChanged",
            arguments: [.string(key), entries.value])
    }

    /// What the user's settings make of `content` on its way to the server; the app is listed among those that
    /// posted.
    ///
    /// - Throws: `Error.NotAllowed`, saying which setting and how to change it, when nothing may be shown.
    func allowedBySettings(_ content: NotificationContent) async throws(DBusFailure) -> NotificationContent {
        let app = settingsApp(of: content)
        let settings = self.settings
        jobs.yield { await settings.note(app) }
        let record = await settings.record(for: app)
        let allowed = record.effective
        let command = "notification-bridge settings \(shellWord(app))"
        guard allowed.isAllowed else {
            throw DBusFailure(
                name: BridgeError.notAllowed,
                message: "the user has turned off the notifications of \(quotedForMessage(app)); nothing was shown "
                    + "(`\(command) --allow` turns them on)")
        }
        if center.isSessionLocked, allowed.lockScreen == .hide {
            throw DBusFailure(
                name: BridgeError.notAllowed,
                message: "the session is locked and \(quotedForMessage(app)) may not show notifications on the lock "
                    + "screen; nothing was shown (`\(command) --lock-screen show` allows it)")
        }
        let quiet = allowed.style == .none || (record.doNotDisturb && content.urgency != .critical)
        if quiet, !(await serverKeepsQuietNotifications(source: record.source)) {
            let why = allowed.style == .none
                ? "the notifications of \(quotedForMessage(app)) are set to appear in no popup (style none)"
                : "do-not-disturb is on"
            throw DBusFailure(
                name: BridgeError.notAllowed,
                message: "\(why), and this notification server keeps no list the bridge could put it in without "
                    + "one; nothing was shown (`\(command) --style banner`, or `--do-not-disturb off`)")
        }
        var shown = content
        switch allowed.style {
        case .alert:
            shown.timeout = .never
            shown.isResident = true
            shown.isTransient = false
        case .banner where record.isStyleChosen:
            // Goes away by itself, yet stays in the server's list as a banner does in iOS's Notification Center:
            // not transient. Left at the default, the style changes nothing an app asked for.
            if shown.timeout == .never { shown.timeout = .serverDefault }
            shown.isResident = false
        case .banner:
            break
        case .none:
            break
        }
        if !allowed.playsSound { shown.sound = .none }
        if !allowed.showsBadge { shown.badge = nil }
        if center.isSessionLocked, allowed.lockScreen == .private {
            shown.title = content.appName ?? app
            shown.body = Self.privateBody
            shown.image = nil
        }
        return shown
    }

    /// Whether the server itself keeps a notification in its list without a popup when the user's settings say so:
    /// GNOME Shell does, reading the same GNOME keys the bridge keeps the settings in.
    private func serverKeepsQuietNotifications(source: SettingsSource) async -> Bool {
        guard source == .gnome else { return false }
        return await center.serverInformation().name == "gnome-shell"
    }

    /// The settings of no app in particular: do-not-disturb, and where the settings are kept.
    private func globalSettings() async -> WireEntries {
        let record = await settings.record(for: "")
        var global = WireEntries()
        global[SettingsKeys.doNotDisturb] = record.doNotDisturb
        global[SettingsKeys.source] = record.source
        return global
    }
}

/// `text` as one word of a shell command, quoted when it needs to be.
private func shellWord(_ text: String) -> String {
    let plain = !text.isEmpty && text.unicodeScalars.allSatisfy {
        ($0.properties.isAlphabetic && $0.isASCII) || ("0"..."9").contains($0) || "-._/".unicodeScalars.contains($0)
    }
    guard !plain else { return text }
    return "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
}
