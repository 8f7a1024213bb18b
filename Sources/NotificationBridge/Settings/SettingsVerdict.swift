import NotificationBridgeAPI
import NotificationModel

/// Why the user's notification settings keep a notification off the screen; the description names the setting and
/// the command that changes it.
public struct NotificationNotAllowedError: Error, CustomStringConvertible, Sendable, Hashable {
    /// The app whose settings decided: its desktop id, else its app name.
    public let app: String
    /// What keeps it off the screen and how to change that, e.g. which setting and the command that turns it on.
    public let description: String
}

extension NotificationContent {
    /// The name the user's settings for this notification go under: its desktop id when it gives one, else its app
    /// name, else `fallback`.
    package func settingsApp(fallback: String) -> String {
        desktopEntry ?? appName ?? fallback
    }
}

extension AppSettingsRecord {
    /// What the app may do now: the user's choice within what the app asked for, with style
    /// ``NotificationAlertStyle/none`` while do-not-disturb is on; what `currentUserNotificationSettings` gives.
    package var allowedNow: AppNotificationSettings {
        var allowed = effective
        if doNotDisturb { allowed.style = .none }
        return allowed
    }

    /// Whether the server keeps a notification in its list without a popup: GNOME Shell does, reading the same GNOME
    /// keys the settings are kept in; no other server can.
    private static func keepsQuietNotifications(
        source: SettingsSource, serverName: @Sendable () async -> String
    ) async -> Bool {
        guard source == .gnome else { return false }
        return await serverName() == "gnome-shell"
    }

    /// The line that replaces a notification's text on a locked screen when its app's lock-screen setting is
    /// `private`.
    package static let privateBody = "New notification"

    /// What these settings (of the app `app`, with the user's do-not-disturb) make of `content` on its way to the
    /// server: the one rule the daemon and a ``DesktopNotificationCenter`` both follow.
    ///
    /// Do-not-disturb keeps a notification quiet unless its level passes it
    /// (``NotificationContent/passes(_:timeSensitiveAllowed:)`` with ``DoNotDisturbSwitch/bridge``); a critical one
    /// keeps its sound when the app's sounds are off.
    ///
    /// - Parameters:
    ///   - sessionLocked: whether the session is locked now.
    ///   - serverName: the notification server's name, asked only when a notification is to be quiet: GNOME Shell,
    ///     which reads the same GNOME keys, keeps one in its list without a popup; no other server can.
    /// - Throws: ``NotificationNotAllowedError`` when nothing may be shown.
    ///
    /// It runs on the caller's actor: a notification that is not to be quiet is shaped with no hop off it.
    package nonisolated(nonsending) func shape(
        _ content: NotificationContent, sessionLocked: Bool, serverName: @Sendable () async -> String
    ) async throws(NotificationNotAllowedError) -> NotificationContent {
        let allowed = effective
        // Written only for a refusal: a notification that passes, as most do, needs no quoting of the app's name.
        var command: String { "notification-bridge settings \(shellWord(app))" }
        guard allowed.isAllowed else {
            throw NotificationNotAllowedError(
                app: app,
                description: "the user has turned off the notifications of \(quotedForMessage(app)); nothing was "
                    + "shown (`\(command) --allow` turns them on)")
        }
        if sessionLocked, allowed.lockScreen == .hide {
            throw NotificationNotAllowedError(
                app: app,
                description: "the session is locked and \(quotedForMessage(app)) may not show notifications on the "
                    + "lock screen; nothing was shown (`\(command) --lock-screen show` allows it)")
        }
        let heldByDoNotDisturb =
            doNotDisturb && !content.passes(.bridge, timeSensitiveAllowed: allowed.allowsTimeSensitive)
        let quiet = allowed.style == .none || heldByDoNotDisturb
        if quiet, !(await Self.keepsQuietNotifications(source: source, serverName: serverName)) {
            let why =
                allowed.style == .none
                ? "the notifications of \(quotedForMessage(app)) are set to appear in no popup (style none)"
                : "do-not-disturb is on"
            // A time-sensitive notification held only by do-not-disturb would pass once the user allows it.
            let allowing =
                allowed.style != .none && content.levelForDoNotDisturb == .timeSensitive
                ? ", or `\(command) --\(SettingsKeys.timeSensitive.name) on`" : ""
            throw NotificationNotAllowedError(
                app: app,
                description: "\(why), and this notification server keeps no list the bridge could put it in "
                    + "without one; nothing was shown (`\(command) --style banner`, or `--do-not-disturb off`"
                    + "\(allowing))")
        }
        var shown = content
        switch allowed.style {
        case .alert:
            shown.timeout = .never
            shown.isResident = true
            shown.isTransient = false
        case .banner where isStyleChosen:
            // Goes away by itself, yet stays in the server's list as a banner does in iOS's Notification Center:
            // not transient. Left at the default, the style changes nothing an app asked for.
            if shown.timeout == .never { shown.timeout = .serverDefault }
            shown.isResident = false
        case .banner, .none:
            break
        }
        // A critical notification is heard even when the app's sounds are off, as on iOS.
        if !allowed.playsSound, content.interruptionLevel != .critical { shown.sound = .none }
        if !allowed.showsBadge { shown.badge = nil }
        if !allowed.allowsSnooze { shown.snoozeIntervals = [] }
        if sessionLocked, allowed.lockScreen == .private {
            shown.title = content.appName ?? app
            shown.body = Self.privateBody
            shown.image = nil
        }
        return shown
    }
}

/// `text` as one word of a shell command, quoted when it needs to be.
private func shellWord(_ text: String) -> String {
    let plain =
        !text.isEmpty
        && text.unicodeScalars.allSatisfy {
            ($0.properties.isAlphabetic && $0.isASCII) || ("0"..."9").contains($0) || "-._/".unicodeScalars.contains($0)
        }
    guard !plain else { return text }
    return "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
}
