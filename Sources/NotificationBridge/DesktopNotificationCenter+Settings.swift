import FoundationEssentials
import NotificationBridgeAPI
import NotificationModel

/// The user's per-app notification settings applied to what the center posts, by the same rule as the daemon's
/// (see ``AppSettingsRecord/shape(_:sessionLocked:serverName:)``).
extension DesktopNotificationCenter {
    /// What the app may do now under the user's settings: the user's choice within what the app asked for; the
    /// counterpart of `currentUserNotificationSettings`. With do-not-disturb on, the style is
    /// ``NotificationAlertStyle/none``. `nil` when the center applies no settings (see
    /// ``Configuration/settingsLocation``).
    ///
    /// - Parameter app: the name the settings go under; the configuration's desktop entry, else its app name, by
    ///   default.
    public func currentSettings(app: String? = nil) async -> AppNotificationSettings? {
        guard let settings else { return nil }
        return await settings.record(for: app ?? configuration.desktopEntry ?? configuration.appName).allowedNow
    }

    /// `content` as the user's settings let it show; the app is listed among those that posted.
    ///
    /// - Throws: ``NotificationNotAllowedError`` when nothing may be shown.
    func allowedBySettings(_ content: NotificationContent) async throws(NotificationNotAllowedError)
        -> NotificationContent
    {
        guard let settings else { return content }
        let app = content.settingsApp(fallback: configuration.appName)
        let record = await settings.record(for: app)
        let serverName = latestServerInformation.name
        do {
            return try await record.shape(content, sessionLocked: isSessionLocked) { serverName }
        } catch {
            logger.info("not shown: the user's notification settings", metadata: ["settings.app": "\(app)"])
            throw error
        }
    }

    /// Opens the settings ``Configuration/settingsLocation`` names; without them (no thread could be started) the
    /// center posts as the server's own rules allow, and says so in the log.
    static func openSettings(_ configuration: Configuration) async -> CachedSettings? {
        guard let location = configuration.settingsLocation else { return nil }
        let environment = ProcessInfo.processInfo.environment
        let logger = configuration.logger
        do {
            return CachedSettings(
                try await NotificationSettingsStore.open(
                    location,
                    directory: configuration.settingsDirectory
                        ?? NotificationSettingsLocation.defaultDirectory(environment: environment),
                    environment: environment
                ) { logger.warning("\($0)") })
        } catch {
            logger.warning(
                "the user's notification settings cannot be followed; they are not applied",
                metadata: [
                    "error": "\(error)"
                ])
            return nil
        }
    }
}
