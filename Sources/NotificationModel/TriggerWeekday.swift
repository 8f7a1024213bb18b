extension CalendarMatch {
    /// A day of the week, numbered as Foundation's `Calendar` numbers them: 1 = Sunday … 7 = Saturday.
    ///
    /// Encoded as its lowercase English name (`"monday"`). Decoding also accepts the numbers 1–7.
    public enum Weekday: Int, Sendable, Hashable, CaseIterable, Comparable {
        /// Sunday, day 1.
        case sunday = 1
        /// Monday, day 2.
        case monday
        /// Tuesday, day 3.
        case tuesday
        /// Wednesday, day 4.
        case wednesday
        /// Thursday, day 5.
        case thursday
        /// Friday, day 6.
        case friday
        /// Saturday, day 7.
        case saturday

        /// The lowercase English name used in JSON.
        public var name: String {
            switch self {
            case .sunday: "sunday"
            case .monday: "monday"
            case .tuesday: "tuesday"
            case .wednesday: "wednesday"
            case .thursday: "thursday"
            case .friday: "friday"
            case .saturday: "saturday"
            }
        }

        /// The weekday with the lowercase English `name`; `nil` for other text.
        public init?(name: String) {
            guard let day = Weekday.allCases.first(where: { $0.name == name }) else { return nil }
            self = day
        }

        /// Orders Sunday first, as the numbers do.
        public static func < (lhs: Weekday, rhs: Weekday) -> Bool {
            lhs.rawValue < rhs.rawValue
        }
    }
}

extension Set where Element == CalendarMatch.Weekday {
    /// Monday to Friday: `CalendarMatch(weekdays: .mondayToFriday, hour: 9)` is "every weekday at 09:00".
    public static var mondayToFriday: Self { [.monday, .tuesday, .wednesday, .thursday, .friday] }

    /// Saturday and Sunday.
    public static var weekend: Self { [.saturday, .sunday] }
}

extension CalendarMatch.Weekday: Codable {
    /// Decodes a weekday from its name (`"monday"`) or its number (1 = Sunday … 7 = Saturday).
    ///
    /// - Throws: `DecodingError.dataCorrupted` saying which names and numbers are accepted.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            guard let day = Self(rawValue: number) else {
                throw DecodingError.dataCorruptedError(
                    in: container,
                    debugDescription: "weekday \(number) is out of range; use 1 (Sunday) to 7 (Saturday), "
                        + "or a name such as \"monday\""
                )
            }
            self = day
            return
        }
        let name = try container.decode(String.self)
        guard let day = Self(name: name) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "unknown weekday \(name.debugDescription); use a lowercase English name "
                    + "(\"sunday\" … \"saturday\") or a number from 1 (Sunday) to 7 (Saturday)"
            )
        }
        self = day
    }

    /// Encodes the weekday as its name.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}
