import DBusCore

/// The keys of a focus mode as `ListFocusModes` lists it: its name, what it lets through, and its schedules.
/// ``FocusModeListing`` reads and writes them. A `[focus NAME]` group of the settings file holds the same keys but the
/// name, which its header gives (``settingsFileKeys``).
public enum FocusModeKeys {
    /// `allow-time-sensitive` (b).
    public static let timeSensitive = BridgeKey.boolean(
        "allow-time-sensitive",
        summary: "whether time-sensitive notifications of the apps allowed them still reach the user (true unless "
            + "turned off for the mode)")
    /// `schedules` (as): each `DAYS HH:MM-HH:MM`.
    public static let schedules = BridgeKey.strings(
        "schedules", example: "<['mon-fri 22:00-07:00']>",
        summary: "when it turns itself on, each written DAYS HH:MM-HH:MM in the user's time zone, such as "
            + "mon-fri 22:00-07:00 (an end before the start is on the next day)")

    /// Every key: the name as ``FocusKeys/name``, the apps and threads as ``FocusOptionKeys`` write them.
    public static let all: [BridgeKeyInfo] = [FocusKeys.name.info] + settingsFileKeys

    /// The keys of a `[focus NAME]` group of the settings file, in the order it is written: each as listed, lists
    /// separated by semicolons.
    public static let settingsFileKeys: [BridgeKeyInfo] = [
        FocusOptionKeys.allowApps.info, FocusOptionKeys.allowThreads.info, timeSensitive.info, schedules.info,
    ]
}

/// A focus mode as the daemon lists it (`ListFocusModes`): its name, the apps and threads it lets through, and the
/// schedules that turn it on.
public struct FocusModeListing: Sendable, Hashable {
    /// The mode's name.
    public var name: String
    /// The apps whose every notification still reaches the user.
    public var apps: [String]
    /// The threads whose notifications still reach the user.
    public var threads: [FocusRequest.Thread]
    /// Whether time-sensitive notifications of the apps the user allows them still reach the user.
    public var timeSensitive: Bool
    /// Its schedules, each written `DAYS HH:MM-HH:MM`.
    public var schedules: [String]

    /// Describes a mode.
    public init(
        name: String, apps: [String], threads: [FocusRequest.Thread], timeSensitive: Bool = true, schedules: [String]
    ) {
        self.name = name
        self.apps = apps
        self.threads = threads
        self.timeSensitive = timeSensitive
        self.schedules = schedules
    }

    /// Reads one listed mode; `nil` when it is not a dictionary. A key that is missing reads as empty (time-sensitive
    /// ones as let through), and a thread not written `APP/THREAD` is left out.
    public init?(_ value: DBusValue) {
        guard let entries = WireEntries(value) else { return nil }
        name = entries[FocusKeys.name] ?? ""
        apps = entries[FocusOptionKeys.allowApps] ?? []
        threads = (entries[FocusOptionKeys.allowThreads] ?? []).compactMap { FocusRequest.Thread(written: $0) }
        timeSensitive = entries[FocusModeKeys.timeSensitive] ?? true
        schedules = entries[FocusModeKeys.schedules] ?? []
    }

    /// The dictionary the daemon sends.
    public var value: DBusValue {
        var entries = WireEntries()
        entries[FocusKeys.name] = name
        entries[FocusOptionKeys.allowApps] = apps
        entries[FocusOptionKeys.allowThreads] = threads.map(\.written)
        entries[FocusModeKeys.timeSensitive] = timeSensitive
        entries[FocusModeKeys.schedules] = schedules
        return entries.value
    }
}
