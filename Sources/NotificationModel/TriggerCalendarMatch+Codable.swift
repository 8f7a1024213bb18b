/// Encodes a match as an object holding only the fields that are set: `month`, `day`, `weekdays`, `hour`, `minute`,
/// `second`. Weekdays are written as names, Sunday first, so the same match always gives the same text.
extension CalendarMatch: Codable {
    private enum CodingKeys: String, CodingKey {
        case month
        case day
        case weekdays
        case hour
        case minute
        case second
    }

    /// Decodes a match; every key is optional, and weekdays may be names or numbers 1–7.
    ///
    /// - Throws: `DecodingError` when a value has the wrong type or names an unknown weekday.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            month: try container.decodeIfPresent(Int.self, forKey: .month),
            day: try container.decodeIfPresent(Int.self, forKey: .day),
            weekdays: try container.decodeIfPresent([Weekday].self, forKey: .weekdays).map(Set.init),
            hour: try container.decodeIfPresent(Int.self, forKey: .hour),
            minute: try container.decodeIfPresent(Int.self, forKey: .minute),
            second: try container.decodeIfPresent(Int.self, forKey: .second)
        )
    }

    /// Encodes the set fields.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(month, forKey: .month)
        try container.encodeIfPresent(day, forKey: .day)
        try container.encodeIfPresent(weekdays?.sorted(), forKey: .weekdays)
        try container.encodeIfPresent(hour, forKey: .hour)
        try container.encodeIfPresent(minute, forKey: .minute)
        try container.encodeIfPresent(second, forKey: .second)
    }
}
