import DBusCore

/// A notification that ended, as `ListHistory` gives it: what it showed and where its responses went
/// (``ListedNotification``), with how and when it ended. Keys in ``HistoryKeys``.
public struct HistoryEntry: Sendable, Hashable {
    /// The notification: its id, content (with the actions it offered) and route.
    public var notification: ListedNotification
    /// How it ended.
    public var ending: NotificationEnding
    /// When it ended, in seconds since 1970.
    public var endedAtSeconds: Int64
    /// The action id of its response, for one that was answered.
    public var responseAction: String?
    /// Whether the caller of `ListHistory` can answer it now (`Act`) or show it again (`Present`): the daemon decides
    /// with the check those calls make, so that an entry listed as answerable is not then refused.
    public var isAnswerable: Bool

    /// Describes a history entry.
    ///
    /// - Parameter answerable: whether it can be answered now; by default, whether it ended in a way that can
    ///   (``NotificationEnding/isAnswerable``).
    public init(
        notification: ListedNotification, ending: NotificationEnding, endedAtSeconds: Int64,
        responseAction: String? = nil, answerable: Bool? = nil
    ) {
        self.notification = notification
        self.ending = ending
        self.endedAtSeconds = endedAtSeconds
        self.responseAction = responseAction
        self.isAnswerable = answerable ?? ending.isAnswerable
    }

    /// Reads one `a{sv}` of `ListHistory`; `nil` when it has no id or no ending this version knows.
    public init?(_ value: DBusValue) {
        guard let received = WireEntries(value), let ending = received[HistoryKeys.ending],
            let endedAt = received[HistoryKeys.endedAt]
        else { return nil }
        self.ending = ending
        endedAtSeconds = endedAt
        responseAction = received[HistoryKeys.responseAction]
        isAnswerable = received[HistoryKeys.answerable] ?? ending.isAnswerable
        let historyKeys = Set(HistoryKeys.all.map(\.name))
        let listed = received.values.filter { !historyKeys.contains($0.key) }
        guard let notification = ListedNotification(.vardict(listed)) else { return nil }
        self.notification = notification
    }

    /// The daemon's id for it.
    public var id: String { notification.id }
    /// The `a{sv}` `ListHistory` gives.
    public var value: DBusValue {
        guard var entries = WireEntries(notification.value) else { return notification.value }
        entries[HistoryKeys.ending] = ending
        entries[HistoryKeys.endedAt] = endedAtSeconds
        entries[HistoryKeys.endedAtISO8601] = ISO8601Text.utc(seconds: endedAtSeconds)
        entries[HistoryKeys.responseAction] = responseAction
        entries[HistoryKeys.answerable] = isAnswerable
        return entries.value
    }
}
