import DBusCore

/// What `SettingsChanged(s app_id, a{sv} settings)` announces: one app's settings, or (with an empty `app_id`) the
/// user's global do-not-disturb.
public enum SettingsAnnouncement: Sendable, Hashable {
    /// An app's settings changed: all of them, as `GetSettings` returns them.
    case app(AppSettingsRecord)
    /// The global do-not-disturb changed: its state, and where the settings are kept.
    case global(doNotDisturb: Bool, source: SettingsSource)

    /// The signal's `app_id`: the app's, or empty for the global settings.
    public var appID: String {
        switch self {
        case .app(let record): record.app
        case .global: ""
        }
    }

    /// The signal's `settings` dictionary.
    public var entries: WireEntries {
        switch self {
        case .app(let record):
            return record.entries
        case .global(let doNotDisturb, let source):
            var entries = WireEntries()
            entries[SettingsKeys.doNotDisturb] = doNotDisturb
            entries[SettingsKeys.source] = source
            return entries
        }
    }

    /// Reads the signal's arguments; `nil` when the dictionary does not hold settings (a key of the wrong type, or
    /// one this version does not know).
    public init?(appID: String, settings: DBusValue) {
        guard let record = try? AppSettingsRecord(settings) else { return nil }
        if appID.isEmpty {
            self = .global(doNotDisturb: record.doNotDisturb, source: record.source)
        } else {
            var record = record
            record.app = appID
            self = .app(record)
        }
    }
}
