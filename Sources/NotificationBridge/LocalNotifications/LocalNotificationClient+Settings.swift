import DBusCore
import NotificationBridgeAPI
import NotificationModel

/// What the user allows the app: the counterparts of `registerUserNotificationSettings` and
/// `currentUserNotificationSettings`, and a stream of changes.
///
/// ```swift
/// try await client.registerSettings([.alert, .sound], categories: [message])
/// let allowed = try await client.currentSettings()
/// if !allowed.isAllowed { showInAppBanner() }
/// for await settings in try await client.settingsChanges() { update(settings) }
/// ```
///
/// Settings go under the app name the client was connected with (an app that posts with a desktop id has them under
/// that id: pass it as `app`).
extension LocalNotificationClient {
    /// Says which kinds of notification the app wants, and registers its categories, in one call: the counterpart of
    /// `registerUserNotificationSettings`. What the app asks for is the ceiling: a kind it leaves out is off whatever
    /// the user chooses.
    ///
    /// - Parameters:
    ///   - kinds: alerts, sounds, badges.
    ///   - categories: categories registered with the daemon, as ``register(_:)`` does.
    ///   - app: the name the settings go under; the client's app name by default.
    /// - Throws: `DBusFailure` from the daemon (`BridgeError.invalidArgument` for a bad category).
    public func registerSettings(
        _ kinds: NotificationKinds, categories: [NotificationCategory] = [], app: String? = nil
    ) async throws {
        var change = SettingsChange()
        change.requested = kinds
        try await proxy.setSettings(app: app ?? appName, change)
        for category in categories { try await proxy.registerCategory(category) }
    }

    /// What the app may do now: the user's choice within what the app asked for; the counterpart of
    /// `currentUserNotificationSettings`. With do-not-disturb on, the style is ``NotificationAlertStyle/none``.
    ///
    /// - Parameter app: the name the settings go under; the client's app name by default.
    public func currentSettings(app: String? = nil) async throws -> AppNotificationSettings {
        try await proxy.settings(app: app ?? appName).allowedNow
    }

    /// The app's settings (as ``currentSettings(app:)`` gives them) each time the user changes them, through the
    /// bridge's command line, GNOME's Settings app or the settings file; the stream ends when the task that reads it
    /// is cancelled or the connection closes.
    ///
    /// - Parameter app: the name the settings go under; the client's app name by default.
    public func settingsChanges(app: String? = nil) async throws -> AsyncStream<AppNotificationSettings> {
        let app = app ?? appName
        let proxy = self.proxy
        let events = try await proxy.events([.settingsChanged])
        let (changes, sink) = AsyncStream.makeStream(of: AppNotificationSettings.self)
        let follower = Task {
            var last: AppNotificationSettings?
            for await event in events {
                guard case .settingsChanged(let announcement) = event,
                    announcement.appID == app || announcement.appID.isEmpty,
                    let record = try? await proxy.settings(app: app)
                else { continue }
                let allowed = record.allowedNow
                if allowed != last { sink.yield(allowed) }
                last = allowed
            }
            sink.finish()
        }
        sink.onTermination = { _ in follower.cancel() }
        return changes
    }
}
