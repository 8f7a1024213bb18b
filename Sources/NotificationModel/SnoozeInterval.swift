/// How long a snoozed notification stays away before it is shown again: one choice a snooze button offers.
///
/// A category (``NotificationCategory/snoozeIntervals``) or a single notification
/// (``NotificationContent/snoozeIntervals``) lists the intervals it offers; the daemon adds a button for each (or for
/// the first, where the server shows few buttons). A click takes the notification off the screen and shows it again
/// once the interval has passed. Encoded as its number of seconds.
public struct SnoozeInterval: Sendable, Hashable, Comparable {
    /// The length of the interval, in seconds.
    public var seconds: Int

    /// An interval of `seconds` seconds; ``validate(_:field:)`` checks that it is positive and not too long.
    public init(seconds: Int) {
        self.seconds = seconds
    }

    /// An interval of `minutes` minutes.
    public static func minutes(_ minutes: Int) -> SnoozeInterval { SnoozeInterval(seconds: minutes * 60) }

    /// An interval of `hours` hours.
    public static func hours(_ hours: Int) -> SnoozeInterval { SnoozeInterval(seconds: hours * 3600) }

    /// The interval as a `Duration`.
    public var duration: Duration { .seconds(seconds) }

    /// Orders intervals by length.
    public static func < (lhs: SnoozeInterval, rhs: SnoozeInterval) -> Bool { lhs.seconds < rhs.seconds }

    private static let units: [(suffix: Character, seconds: Int, label: String)] = [
        ("d", 86_400, "d"), ("h", 3_600, "h"), ("m", 60, "min"), ("s", 1, "s"),
    ]

    /// A short label for a button: `10 min`, `1 h`, `1 h 30 min`, `45 s`, `2 d`.
    public var label: String {
        var rest = seconds
        var parts: [String] = []
        for unit in Self.units where rest >= unit.seconds {
            parts.append("\(rest / unit.seconds) \(unit.label)")
            rest %= unit.seconds
        }
        return parts.isEmpty ? "\(seconds) s" : parts.joined(separator: " ")
    }

    /// The interval as the command line writes it: `10m`, `1h`, `1h30m`, `45s`, `2d`.
    public var text: String {
        var rest = seconds
        var text = ""
        for unit in Self.units where rest >= unit.seconds {
            text += "\(rest / unit.seconds)\(unit.suffix)"
            rest %= unit.seconds
        }
        return text.isEmpty ? "\(seconds)s" : text
    }

    /// Reads an interval as the command line writes it: numbers each followed by `d`, `h`, `m` or `s` (`10m`,
    /// `1h30m`), or a plain number of seconds (`600`); `nil` for anything else. The value is not validated.
    public init?(text: String) {
        if let plain = Int(text) {
            self.init(seconds: plain)
            return
        }
        var total = 0
        var number = ""
        for character in text {
            if character.isASCII, character.isNumber {
                number.append(character)
                continue
            }
            guard let unit = Self.units.first(where: { $0.suffix == character }), let value = Int(number),
                case (let product, false) = value.multipliedReportingOverflow(by: unit.seconds),
                case (let sum, false) = total.addingReportingOverflow(product)
            else { return nil }
            total = sum
            number = ""
        }
        guard number.isEmpty, !text.isEmpty else { return nil }
        self.init(seconds: total)
    }

    /// The wire action key of this interval's button: `snooze:` and the seconds (`snooze:600`). Ids that start with
    /// `snooze:` are reserved (``ReservedActionID/isReserved(_:)``), so no action of an app can take it.
    public var actionKey: String { ReservedActionID.snoozeKeyPrefix + String(seconds) }
}

extension SnoozeInterval: Codable {
    /// Decodes an interval from its number of seconds.
    ///
    /// - Throws: `DecodingError` when the value is not an integer.
    public init(from decoder: any Decoder) throws {
        self.init(seconds: try decoder.singleValueContainer().decode(Int.self))
    }

    /// Encodes the number of seconds.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(seconds)
    }
}

extension SnoozeInterval {
    /// Checks the snooze intervals of a category or notification: at most ``NotificationLimits/maxSnoozeIntervals``,
    /// each from 1 second to ``NotificationLimits/maxSnoozeSeconds``, no two the same.
    ///
    /// - Parameter field: the path errors name (`category.snoozeIntervals`).
    /// - Throws: ``NotificationValidationError`` naming the field.
    public static func validate(_ intervals: [SnoozeInterval], field: String) throws(NotificationValidationError) {
        let limit = NotificationLimits.maxSnoozeIntervals
        guard intervals.count <= limit else {
            throw .tooManySnoozeIntervals(field: field, count: intervals.count, limit: limit)
        }
        var seen: Set<Int> = []
        for (index, interval) in intervals.enumerated() {
            guard interval.seconds > 0, interval.seconds <= NotificationLimits.maxSnoozeSeconds else {
                throw .invalidSnoozeInterval(
                    field: "\(field)[\(index)]", seconds: interval.seconds, limit: NotificationLimits.maxSnoozeSeconds)
            }
            guard seen.insert(interval.seconds).inserted else {
                throw .duplicateSnoozeInterval(field: "\(field)[\(index)]", seconds: interval.seconds)
            }
        }
    }
}
