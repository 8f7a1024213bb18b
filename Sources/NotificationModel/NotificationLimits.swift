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
}
