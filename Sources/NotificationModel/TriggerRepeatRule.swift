/// How a date trigger repeats: the counterpart of `UILocalNotification.repeatInterval`.
///
/// Encoded as the interval's name: `"minute"`, `"hour"`, `"day"`, `"week"`, `"month"` or `"year"`.
public enum RepeatRule: Sendable, Hashable {
    /// Fires again every `interval` after the first fire date.
    ///
    /// Every occurrence is counted from the first fire date, never from the previous occurrence, so that a monthly
    /// series on the 31st returns to the 31st after a shorter month. How each interval is counted is described on
    /// ``Interval``.
    case interval(Interval)

    /// A repeat interval.
    ///
    /// Minutes and hours are elapsed time (every 60 and 3600 seconds). Days and longer are calendar units that keep
    /// the wall-clock time of the first fire date: a daily 09:00 notification stays at 09:00 across daylight-saving
    /// changes. A month or year that lacks the first date's day uses its last day (the 31st becomes the 30th or the
    /// 28th; 29 February becomes 28 February in common years).
    public enum Interval: String, Sendable, Hashable, CaseIterable, Codable {
        /// Every 60 seconds.
        case minute
        /// Every 3600 seconds.
        case hour
        /// Every calendar day, at the same wall-clock time.
        case day
        /// Every seven calendar days, at the same wall-clock time.
        case week
        /// Every month, on the same day (or the month's last day), at the same wall-clock time.
        case month
        /// Every year, on the same date (or 28 February for 29 February), at the same wall-clock time.
        case year

        /// The length of the interval in seconds for minutes and hours, which are counted as elapsed time; `nil` for
        /// calendar units, whose length varies.
        public var elapsedSeconds: Int? {
            switch self {
            case .minute: 60
            case .hour: 3600
            case .day, .week, .month, .year: nil
            }
        }
    }
}

extension RepeatRule: Codable {
    /// Decodes a rule from an interval name.
    ///
    /// - Throws: `DecodingError.dataCorrupted` listing the names when the text is not one of them.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let interval = Interval(rawValue: name) else {
            let names = Interval.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "unknown repeat interval \(name.debugDescription); use one of \(names)"
            )
        }
        self = .interval(interval)
    }

    /// Encodes the rule as its interval's name.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .interval(let interval): try container.encode(interval.rawValue)
        }
    }
}
