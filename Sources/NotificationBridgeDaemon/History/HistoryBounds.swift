import FoundationEssentials

/// How much of the history the daemon keeps: entries younger than ``days`` days, at most ``limit`` of them, the
/// newest kept. Enforced each time an entry is written, and at the start.
public struct HistoryBounds: Sendable, Hashable {
    /// The default age: a week.
    public static let defaultDays = 7
    /// The default count.
    public static let defaultLimit = 500
    /// The largest count: the history is listed whole.
    public static let maximumLimit = 10_000

    /// Days an entry is kept; 0 keeps none.
    public var days: Int
    /// Entries kept at most; 0 keeps none.
    public var limit: Int

    /// Bounds of `days` days and `limit` entries.
    public init(days: Int = Self.defaultDays, limit: Int = Self.defaultLimit) {
        self.days = days
        self.limit = limit
    }

    /// The time before which an entry is dropped, seen at `now`.
    func cutoff(at now: Date) -> Date {
        now.addingTimeInterval(-Double(days) * 86_400)
    }

    /// Whether the history keeps anything.
    var keepsAny: Bool { days > 0 && limit > 0 }
}
