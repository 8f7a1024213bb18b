import DBusCore

/// The keys of a notification as `ListPending`, `ListDelivered` and `Fired` give it: ``id``, the keys `Post` took
/// (``PostKeys``, those that were set, scheduling keys for pending ones) and ``nextFireDate`` for pending ones.
public enum ListedKeys {
    /// `id` (s).
    public static let id = BridgeKey.string("id", example: "<'3f9c2a7e1b4d5c6a'>", summary: "the notification's id")
    /// `next-fire-date` (x): seconds since 1970.
    public static let nextFireDate = BridgeKey.int64(
        "next-fire-date", summary: "when a scheduled notification fires next, in seconds since 1970")
    /// `next-fire-date-iso8601` (s): ``nextFireDate`` as a person reads it, in UTC.
    public static let nextFireDateISO8601 = BridgeKey.string(
        "next-fire-date-iso8601", example: "<'2030-12-24T17:00:00Z'>",
        summary: "next-fire-date as an ISO 8601 date and time in UTC, e.g. 2030-12-24T17:00:00Z")
    /// `on-screen` (b): `false` for a delivered notification of a thread that waits behind the thread's newest, which
    /// the server shows in its place; left out otherwise.
    public static let onScreen = BridgeKey.boolean(
        "on-screen", summary: "false for a notification of a thread that waits behind the thread's newest one")

    /// `held` (b): true for a notification the desktop's do-not-disturb holds back.
    public static let held = BridgeKey.boolean(
        "held", summary: "ListPending: the desktop's do-not-disturb holds it back; it is shown once the switch is off")

    /// The keys `ListPending` adds to those `Post` took.
    public static let pending: [BridgeKeyInfo] = [id.info, nextFireDate.info, nextFireDateISO8601.info, held.info]
    /// The keys `ListDelivered` (and `Fired`) add to those `Post` took.
    public static let delivered: [BridgeKeyInfo] = [id.info, onScreen.info]

    /// Every key.
    public static let all: [BridgeKeyInfo] =
        [id.info, nextFireDate.info, nextFireDateISO8601.info, onScreen.info, held.info] + PostKeys.all

    /// The keys a listing adds for a pending notification that fires next at `seconds` since 1970: ``nextFireDate``
    /// and ``nextFireDateISO8601``, which always agree.
    public static func fireDateEntries(seconds: Int64) -> [(key: String, value: DBusValue)] {
        [(nextFireDate.name, .int64(seconds)), (nextFireDateISO8601.name, .string(ISO8601Text.utc(seconds: seconds)))]
    }
}

/// The interface's dictionaries and their keys, for documentation and for the checks that keep them documented.
public enum BridgeKeyTables {
    /// Each dictionary's name and its keys.
    public static let all: [(dictionary: String, keys: [BridgeKeyInfo])] = [
        ("Post notification", PostKeys.all), ("calendar", CalendarKeys.all), ("action", ActionKeys.all),
        ("RegisterCategory options", CategoryOptionKeys.all), ("ListCategories category", CategoryKeys.all),
        ("response", ResponseKeys.all), ("listed notification", ListedKeys.all), ("filter", FilterKeys.all),
        ("history entry", HistoryKeys.all), ("Act options", ActOptionKeys.all),
        ("Attach options", AttachOptionKeys.all), ("settings", SettingsKeys.all),
        ("server information", ServerInformationKeys.all), ("desktop do-not-disturb", DoNotDisturbKeys.all),
        ("active focus", FocusKeys.all), ("TurnOnFocus options", FocusOptionKeys.all),
        ("focus mode", FocusModeKeys.all),
    ]
}
