/// How urgent a notification is; the raw value is the byte sent as the freedesktop `urgency` hint.
///
/// Encoded as the strings `"low"`, `"normal"` and `"critical"`; decoding also accepts the numbers 0, 1 and 2.
public enum NotificationUrgency: UInt8, Sendable, Hashable, CaseIterable {
    /// Routine information; servers may show it less prominently.
    case low = 0

    /// The usual level.
    case normal = 1

    /// Needs attention now; many servers keep critical notifications until the user acts.
    case critical = 2

    /// The name used in encoded form and in the daemon's D-Bus API.
    public var name: String {
        switch self {
        case .low: "low"
        case .normal: "normal"
        case .critical: "critical"
        }
    }

    /// Finds the urgency with the given ``name``; `nil` for any other string.
    public init?(name: String) {
        guard let urgency = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = urgency
    }
}

extension NotificationUrgency: Codable {
    /// Decodes an urgency from its name or from its byte value.
    ///
    /// - Throws: `DecodingError` for other names and numbers.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let name = try? container.decode(String.self), let urgency = NotificationUrgency(name: name) {
            self = urgency
        } else if let byte = try? container.decode(UInt8.self), let urgency = NotificationUrgency(rawValue: byte) {
            self = urgency
        } else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: #"unrecognized urgency; use "low", "normal" or "critical" (or 0, 1, 2)"#
            )
        }
    }

    /// Encodes the urgency as its ``name``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}
