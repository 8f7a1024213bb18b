/// Encodes a wall-clock time as the text `YYYY-MM-DDTHH:MM:SS`.
///
/// Decoding accepts exactly that form: four-digit year, two digits for every other field, a `T` between date and
/// time, and no zone designator (a time with a zone is an instant: use ``FireDate/instant(secondsSince1970:)``).
/// Decoding checks the form, not the ranges: `2025-02-30T09:00:00` decodes, and ``LocalDateTime/validate()`` rejects
/// it with a message naming the field.
extension LocalDateTime: Codable {
    /// Decodes a wall-clock time from its ISO 8601 text.
    ///
    /// - Throws: `DecodingError.dataCorrupted` naming the expected form when the text has another shape.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = LocalDateTime(parsing: text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "\(text.debugDescription) is not a wall-clock time; write it as "
                    + "YYYY-MM-DDTHH:MM:SS with no time zone, such as \"2025-03-30T09:00:00\""
            )
        }
        self = value
    }

    /// Encodes the time as ``description``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Reads `YYYY-MM-DDTHH:MM:SS`; `nil` for any other shape. Ranges are not checked.
    public init?(parsing text: String) {
        let bytes = Array(text.utf8)
        // Offsets of the separators and of each field in the fixed-width form.
        let separators: [(Int, UInt8)] = [
            (4, UInt8(ascii: "-")), (7, UInt8(ascii: "-")), (10, UInt8(ascii: "T")),
            (13, UInt8(ascii: ":")), (16, UInt8(ascii: ":")),
        ]
        guard bytes.count == 19, separators.allSatisfy({ bytes[$0.0] == $0.1 }) else { return nil }
        func number(_ start: Int, _ length: Int) -> Int? {
            var value = 0
            for byte in bytes[start..<start + length] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
            let minute = number(14, 2), let second = number(17, 2)
        else { return nil }
        self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }
}
