/// Action identifiers the bridge uses itself, which user actions may not take.
///
/// The freedesktop protocol gives `default` and `inline-reply` a meaning on the wire, and the bridge reports a user's
/// dismissal as `dismiss`; an action with one of these ids could not be told apart from them. Ids that start with
/// ``snoozeKeyPrefix`` are reserved too: they are the wire keys of the bridge's snooze buttons.
public enum ReservedActionID: String, Sendable, Hashable, Codable, CaseIterable {
    /// The user clicked the body of the notification rather than a button.
    case `default` = "default"

    /// The user dismissed the notification; reported only when the category asks for it.
    case dismiss = "dismiss"

    /// The wire key of the KDE inline-reply action.
    case inlineReply = "inline-reply"

    /// The start of the wire keys of the bridge's snooze buttons, followed by the interval's seconds
    /// (``SnoozeInterval/actionKey``).
    public static let snoozeKeyPrefix = "snooze:"

    /// Returns whether an action id is reserved: one of the cases, or an id that starts with ``snoozeKeyPrefix``.
    ///
    /// The comparison is exact: ids are case-sensitive, so `Default` is not reserved.
    public static func isReserved(_ id: String) -> Bool {
        ReservedActionID(rawValue: id) != nil || id.hasPrefix(snoozeKeyPrefix)
    }
}
