import DBusCore
import NotificationModel

/// One app's notification settings as the daemon reports them: the user's choice, what the app asked for, the
/// global do-not-disturb and where they are kept. Reads and writes the keys of ``SettingsKeys``.
public struct AppSettingsRecord: Sendable, Hashable {
    /// The app: its desktop id, or the app name it posts under.
    public var app: String
    /// What the user chose.
    public var settings: AppNotificationSettings
    /// What the app asked for; `nil` when it never asked (then nothing is held back).
    public var requested: NotificationKinds?
    /// The user's global do-not-disturb.
    public var doNotDisturb: Bool
    /// Where the settings are kept.
    public var source: SettingsSource
    /// Whether the user chose the style for this app, rather than leaving it at the default; known where the
    /// bridge keeps the settings itself (GNOME offers no banner style of its own to choose). Not on the wire.
    package var isStyleChosen = false

    /// A record with every field given.
    public init(
        app: String, settings: AppNotificationSettings, requested: NotificationKinds?, doNotDisturb: Bool,
        source: SettingsSource
    ) {
        self.app = app
        self.settings = settings
        self.requested = requested
        self.doNotDisturb = doNotDisturb
        self.source = source
    }

    /// What the app may do: the user's choice within what it asked for.
    public var effective: AppNotificationSettings { settings.limited(to: requested ?? .all) }

    /// The dictionary.
    public var entries: WireEntries {
        var entries = WireEntries()
        entries[SettingsKeys.app] = app
        entries[SettingsKeys.allowed] = settings.isAllowed
        entries[SettingsKeys.style] = settings.style
        entries[SettingsKeys.sound] = settings.playsSound
        entries[SettingsKeys.badge] = settings.showsBadge
        entries[SettingsKeys.lockScreen] = settings.lockScreen
        entries[SettingsKeys.timeSensitive] = settings.allowsTimeSensitive
        entries[SettingsKeys.critical] = settings.allowsCritical
        entries[SettingsKeys.snooze] = settings.allowsSnooze
        entries[SettingsKeys.floodLimit] = settings.floodLimit
        entries[SettingsKeys.doNotDisturb] = doNotDisturb
        entries[SettingsKeys.requested] = requested
        entries[SettingsKeys.source] = source
        return entries
    }

    /// Reads a record the daemon sent; missing keys take their defaults.
    ///
    /// - Throws: `InvalidArgument` for a value of the wrong type or an unknown key.
    public init(_ value: DBusValue) throws(DBusFailure) {
        let dictionary = try VariantDictionary(value, place: "settings", keys: SettingsKeys.all)
        let defaults = AppNotificationSettings()
        app = try dictionary.decode(SettingsKeys.app) ?? ""
        settings = AppNotificationSettings(
            isAllowed: try dictionary.decode(SettingsKeys.allowed) ?? defaults.isAllowed,
            style: try dictionary.decode(SettingsKeys.style) ?? defaults.style,
            playsSound: try dictionary.decode(SettingsKeys.sound) ?? defaults.playsSound,
            showsBadge: try dictionary.decode(SettingsKeys.badge) ?? defaults.showsBadge,
            lockScreen: try dictionary.decode(SettingsKeys.lockScreen) ?? defaults.lockScreen,
            allowsTimeSensitive: try dictionary.decode(SettingsKeys.timeSensitive) ?? defaults.allowsTimeSensitive,
            allowsSnooze: try dictionary.decode(SettingsKeys.snooze) ?? defaults.allowsSnooze,
            allowsCritical: try dictionary.decode(SettingsKeys.critical),
            floodLimit: try dictionary.decode(SettingsKeys.floodLimit) ?? defaults.floodLimit)
        requested = try dictionary.decode(SettingsKeys.requested)
        doNotDisturb = try dictionary.decode(SettingsKeys.doNotDisturb) ?? false
        source = try dictionary.decode(SettingsKeys.source) ?? .file
    }
}

/// A change to notification settings, as `SetSettings` takes it: only the fields given change.
public struct SettingsChange: Sendable, Hashable {
    /// `allowed`.
    public var isAllowed: Bool?
    /// `style`.
    public var style: NotificationAlertStyle?
    /// `sound`.
    public var playsSound: Bool?
    /// `badge`.
    public var showsBadge: Bool?
    /// `lock-screen`.
    public var lockScreen: LockScreenVisibility?
    /// `time-sensitive`.
    public var allowsTimeSensitive: Bool?
    /// `critical-alerts`.
    public var allowsCritical: Bool?
    /// `snooze`.
    public var allowsSnooze: Bool?
    /// `flood-limit`.
    public var floodLimit: FloodLimit?
    /// `do-not-disturb`: global, whichever app is named.
    public var doNotDisturb: Bool?
    /// `requested`: what the app asks for.
    public var requested: NotificationKinds?

    /// A change of nothing; set the fields to change.
    public init() {}

    /// Whether nothing is to change.
    public var isEmpty: Bool { self == SettingsChange() }

    /// The dictionary `SetSettings` takes.
    public var entries: WireEntries {
        var entries = WireEntries()
        entries[SettingsKeys.allowed] = isAllowed
        entries[SettingsKeys.style] = style
        entries[SettingsKeys.sound] = playsSound
        entries[SettingsKeys.badge] = showsBadge
        entries[SettingsKeys.lockScreen] = lockScreen
        entries[SettingsKeys.timeSensitive] = allowsTimeSensitive
        entries[SettingsKeys.critical] = allowsCritical
        entries[SettingsKeys.snooze] = allowsSnooze
        entries[SettingsKeys.floodLimit] = floodLimit
        entries[SettingsKeys.doNotDisturb] = doNotDisturb
        entries[SettingsKeys.requested] = requested
        return entries
    }

    /// Reads `SetSettings`'s dictionary.
    ///
    /// - Throws: `InvalidArgument` naming the key for a wrong type, an unknown value or an unknown key.
    public init(_ value: DBusValue) throws(DBusFailure) {
        let dictionary = try VariantDictionary(value, place: "settings", keys: SettingsKeys.settable)
        isAllowed = try dictionary.decode(SettingsKeys.allowed)
        style = try dictionary.decode(SettingsKeys.style)
        playsSound = try dictionary.decode(SettingsKeys.sound)
        showsBadge = try dictionary.decode(SettingsKeys.badge)
        lockScreen = try dictionary.decode(SettingsKeys.lockScreen)
        allowsTimeSensitive = try dictionary.decode(SettingsKeys.timeSensitive)
        allowsCritical = try dictionary.decode(SettingsKeys.critical)
        allowsSnooze = try dictionary.decode(SettingsKeys.snooze)
        floodLimit = try dictionary.decode(SettingsKeys.floodLimit)
        doNotDisturb = try dictionary.decode(SettingsKeys.doNotDisturb)
        requested = try dictionary.decode(SettingsKeys.requested)
    }

    /// `settings` with this change applied (``doNotDisturb`` and ``requested`` are not part of them).
    public func applied(to settings: AppNotificationSettings) -> AppNotificationSettings {
        var changed = settings
        if let isAllowed { changed.isAllowed = isAllowed }
        if let style { changed.style = style }
        if let playsSound { changed.playsSound = playsSound }
        if let showsBadge { changed.showsBadge = showsBadge }
        if let lockScreen { changed.lockScreen = lockScreen }
        if let allowsTimeSensitive { changed.allowsTimeSensitive = allowsTimeSensitive }
        if let allowsSnooze { changed.allowsSnooze = allowsSnooze }
        if let allowsCritical { changed.allowsCritical = allowsCritical }
        if let floodLimit { changed.floodLimit = floodLimit }
        return changed
    }
}
