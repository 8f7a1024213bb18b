/// Encodes a trigger as an object whose `kind` says which case it is.
///
/// ```json
/// {"kind": "date", "fire-date": {"wall-clock": "2026-01-01T09:00:00"}, "repeat": "month"}
/// {"kind": "date", "fire-date": {"instant": 1767254400}}
/// {"kind": "time-interval", "seconds": 90, "repeats": false}
/// {"kind": "calendar", "match": {"weekdays": ["monday", "friday"], "hour": 9, "minute": 0}, "repeats": true}
/// ```
///
/// `repeat` is left out for a date that does not repeat; `repeats` may be left out when decoding and means `false`.
extension NotificationTrigger: Codable {
    private enum CodingKeys: String, CodingKey {
        case kind
        case fireDate = "fire-date"
        case repeatRule = "repeat"
        case seconds
        case repeats
        case match
    }

    private enum Kind: String, Codable, CaseIterable {
        case date
        case timeInterval = "time-interval"
        case calendar
    }

    /// Decodes a trigger; see the extension's description for the keys.
    ///
    /// - Throws: `DecodingError` when `kind` is missing or unknown, a key the kind needs is missing, or a value has
    ///   the wrong form.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .kind)
        guard let kind = Kind(rawValue: name) else {
            let names = Kind.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw DecodingError.dataCorruptedError(
                forKey: .kind,
                in: container,
                debugDescription: "unknown trigger kind \(name.debugDescription); use one of \(names)"
            )
        }
        let repeats = try container.decodeIfPresent(Bool.self, forKey: .repeats) ?? false
        switch kind {
        case .date:
            self = .date(
                try container.decode(FireDate.self, forKey: .fireDate),
                repeat: try container.decodeIfPresent(RepeatRule.self, forKey: .repeatRule)
            )
        case .timeInterval:
            self = .timeInterval(seconds: try container.decode(Double.self, forKey: .seconds), repeats: repeats)
        case .calendar:
            self = .calendar(try container.decode(CalendarMatch.self, forKey: .match), repeats: repeats)
        }
    }

    /// Encodes the trigger with its `kind` and the keys of that kind.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .date(let fireDate, let rule):
            try container.encode(Kind.date, forKey: .kind)
            try container.encode(fireDate, forKey: .fireDate)
            try container.encodeIfPresent(rule, forKey: .repeatRule)
        case .timeInterval(let seconds, let repeats):
            try container.encode(Kind.timeInterval, forKey: .kind)
            try container.encode(seconds, forKey: .seconds)
            try container.encode(repeats, forKey: .repeats)
        case .calendar(let match, let repeats):
            try container.encode(Kind.calendar, forKey: .kind)
            try container.encode(match, forKey: .match)
            try container.encode(repeats, forKey: .repeats)
        }
    }
}
