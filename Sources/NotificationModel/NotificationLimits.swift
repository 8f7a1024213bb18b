/// The size limits that validation enforces.
///
/// Text limits count UTF-8 bytes, because that is what D-Bus carries and what the bridge stores on disk. They are
/// generous enough for any real notification and small enough that a single bad message cannot exhaust the daemon.
public enum NotificationLimits {
    /// The longest identifier (action, category or thread id), in UTF-8 bytes.
    public static let maxIdentifierLength = 255

    /// The longest title, in UTF-8 bytes.
    ///
    /// Applies to the notification title and to every short label: action titles, the text-input submit button
    /// title and placeholder, the default-action label and the application name.
    public static let maxTitleBytes = 1024

    /// The longest notification body, in UTF-8 bytes (64 KiB).
    public static let maxBodyBytes = 64 * 1024

    /// The most actions a category, or a notification's inline action list, may hold.
    public static let maxActionsPerCategory = 32

    /// The most actions a category may name for the minimal context (where a server shows few buttons).
    public static let maxMinimalActions = 2

    /// The largest `userInfo`, measured as the UTF-8 size of its compact JSON text (64 KiB).
    public static let maxUserInfoBytes = 64 * 1024

    /// The most categories that may be registered at the same time.
    public static let maxCategories = 1024

    /// The most snooze intervals a category or notification may offer: each may become a button.
    public static let maxSnoozeIntervals = 4

    /// The longest snooze interval, in seconds (7 days): a notification put off for longer is a reminder to schedule.
    public static let maxSnoozeSeconds = 7 * 86_400

    /// What marks a text cut to fit a limit: `…` (3 UTF-8 bytes).
    public static let ellipsis = "\u{2026}"

    /// `text` when it fits in `maxBytes` UTF-8 bytes; else its longest beginning that fits with ``ellipsis`` after it,
    /// cut between characters (so no letter loses an accent and no emoji is split). Empty when not even the ellipsis
    /// fits.
    public static func truncated(_ text: String, toBytes maxBytes: Int) -> String {
        guard text.utf8.count > maxBytes else { return text }
        let room = maxBytes - ellipsis.utf8.count
        guard room >= 0 else { return "" }
        var kept = 0
        var end = text.startIndex
        for index in text.indices {
            let size = text[index].utf8.count
            if kept + size > room { break }
            kept += size
            end = text.index(after: index)
        }
        return text[..<end] + ellipsis
    }
}
