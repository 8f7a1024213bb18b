import DBusCore

/// The keys `ListHistory` adds to a listed notification (``ListedKeys``): how and when it ended, and whether it can
/// still be answered.
public enum HistoryKeys {
    /// `ended` (s).
    public static let ending = BridgeKey<NotificationEnding>.choice(
        "ended",
        summary: "how it ended: responded, dismissed, expired, closed (by the server), withdrawn (by its app), "
            + "replaced or server-gone")
    /// `ended-at` (x): seconds since 1970.
    public static let endedAt = BridgeKey.int64("ended-at", summary: "when it ended, in seconds since 1970")
    /// `ended-at-iso8601` (s): ``endedAt`` as a person reads it, in UTC.
    public static let endedAtISO8601 = BridgeKey.string(
        "ended-at-iso8601", example: "<'2030-12-24T17:00:00Z'>",
        summary: "ended-at as an ISO 8601 date and time in UTC")
    /// `response-action` (s).
    public static let responseAction = BridgeKey.string(
        "response-action", example: "<'archive'>",
        summary: "the action id of its response (default for its body, dismiss for a reported dismissal); never "
            + "typed text")
    /// `answerable` (b).
    public static let answerable = BridgeKey.boolean(
        "answerable",
        summary: "whether the caller can answer it now with Act and show it again with Present: it ended "
            + "unanswered, and its response can reach where it goes (its command, its app, or the program that "
            + "posted it or an app attached as it)")

    /// Every key `ListHistory` adds.
    public static let all: [BridgeKeyInfo] = [
        ending.info, endedAt.info, endedAtISO8601.info, responseAction.info, answerable.info,
    ]
}

/// The keys of `Act`'s `options` (`a{sv}`).
public enum ActOptionKeys {
    /// `text` (s).
    public static let text = BridgeKey.string(
        "text", example: "<'On my way'>",
        summary: "the typed text of a text-input action (required for one, refused for any other); never kept")

    /// Every key.
    public static let all: [BridgeKeyInfo] = [text.info]
}
