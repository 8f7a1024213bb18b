import NotificationBridgeAPI
import NotificationModel

/// What a settings file holds: each field `nil` where it says nothing (the default applies).
struct StoredSettings: Sendable, Hashable {
    /// The global do-not-disturb.
    var doNotDisturb: Bool?
    /// Each app's settings, by the app's name as the bridge knows it.
    var apps: [String: StoredAppSettings] = [:]
    /// The focus modes the file defines, by name, as written.
    var focusModes: [String: SettingsFocusGroup] = [:]
}

/// One app's entries in a settings file.
struct StoredAppSettings: Sendable, Hashable {
    var isAllowed: Bool?
    var style: NotificationAlertStyle?
    var playsSound: Bool?
    var showsBadge: Bool?
    var lockScreen: LockScreenVisibility?
    var allowsTimeSensitive: Bool?
    var allowsSnooze: Bool?
    var allowsCritical: Bool?
    var floodLimit: FloodLimit?
    var requested: NotificationKinds?

    /// The settings, defaults where nothing is stored.
    var settings: AppNotificationSettings {
        let defaults = AppNotificationSettings()
        return AppNotificationSettings(
            isAllowed: isAllowed ?? defaults.isAllowed, style: style ?? defaults.style,
            playsSound: playsSound ?? defaults.playsSound, showsBadge: showsBadge ?? defaults.showsBadge,
            lockScreen: lockScreen ?? defaults.lockScreen,
            allowsTimeSensitive: allowsTimeSensitive ?? defaults.allowsTimeSensitive,
            allowsSnooze: allowsSnooze ?? defaults.allowsSnooze, allowsCritical: allowsCritical,
            floodLimit: floodLimit ?? defaults.floodLimit)
    }

    /// Takes the fields `change` gives.
    mutating func apply(_ change: SettingsChange) {
        if let value = change.isAllowed { isAllowed = value }
        if let value = change.style { style = value }
        if let value = change.playsSound { playsSound = value }
        if let value = change.showsBadge { showsBadge = value }
        if let value = change.lockScreen { lockScreen = value }
        if let value = change.allowsTimeSensitive { allowsTimeSensitive = value }
        if let value = change.allowsSnooze { allowsSnooze = value }
        if let value = change.allowsCritical { allowsCritical = value }
        if let value = change.floodLimit { floodLimit = value }
        if let value = change.requested { requested = value }
    }
}
