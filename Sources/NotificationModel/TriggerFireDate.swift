/// When a date trigger fires: a fixed instant, or a time on the user's wall clock.
///
/// The counterpart of `UILocalNotification.fireDate` and `timeZone`. Without a time zone, the fire date is an
/// absolute instant: it fires at that moment wherever the user is. With a time zone, it is a wall-clock time in the
/// user's *current* zone, and it moves with the user: "09:00" fires at 09:00 in Berlin, and at 09:00 in New York
/// after the user flies there.
///
/// Encoded as an object with one key: `{"instant": 1767254400}` (seconds since 1970-01-01T00:00:00Z) or
/// `{"wall-clock": "2026-01-01T09:00:00"}`.
public enum FireDate: Sendable, Hashable {
    /// An absolute instant, in seconds since 1970-01-01T00:00:00Z; time-zone changes do not move it.
    ///
    /// Repeats of an instant are counted in UTC: a daily repeat is every 86,400 seconds, a monthly one on the same
    /// UTC day of the month.
    case instant(secondsSince1970: Double)

    /// A wall-clock time in the user's current time zone, which follows the user when the zone changes.
    ///
    /// A time the clock skips (in a spring-forward gap) fires at the first instant after the gap; a time the clock
    /// shows twice (after a fall-back) fires once, at the first of them.
    case wallClock(LocalDateTime)

    /// Whether the fire date is a wall-clock time, which moves when the user's time zone changes.
    public var followsTimeZone: Bool {
        if case .wallClock = self { return true }
        return false
    }
}

extension FireDate: Codable {
    private enum CodingKeys: String, CodingKey {
        case instant
        case wallClock = "wall-clock"
    }

    /// Decodes `{"instant": seconds}` or `{"wall-clock": "YYYY-MM-DDTHH:MM:SS"}`.
    ///
    /// - Throws: `DecodingError` when neither key, or both, are present, or a value has the wrong form.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch (container.contains(.instant), container.contains(.wallClock)) {
        case (true, false):
            self = .instant(secondsSince1970: try container.decode(Double.self, forKey: .instant))
        case (false, true):
            self = .wallClock(try container.decode(LocalDateTime.self, forKey: .wallClock))
        default:
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: #"a fire date needs exactly one of "instant" (seconds since 1970, UTC) or "#
                        + #""wall-clock" ("YYYY-MM-DDTHH:MM:SS" in the user's current time zone)"#
                )
            )
        }
    }

    /// Encodes the fire date as an object with one key.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .instant(let seconds): try container.encode(seconds, forKey: .instant)
        case .wallClock(let time): try container.encode(time, forKey: .wallClock)
        }
    }
}
