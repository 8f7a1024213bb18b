/// How long the server shows a notification before it expires.
///
/// Encoded as the string `"server-default"` or `"never"`, or as a number of milliseconds. Decoding also accepts the
/// freedesktop wire numbers -1 (server default) and 0 (never). Some servers, GNOME Shell among them, ignore it.
public enum NotificationTimeout: Sendable, Hashable {
    /// The server decides (wire value -1).
    case serverDefault

    /// The notification stays until the user or the app closes it (wire value 0).
    case never

    /// Expires after this many milliseconds; must be positive (validation rejects 0 and negative values).
    case milliseconds(Int32)

    /// The `expire_timeout` argument of `Notify`: -1, 0, or the milliseconds.
    ///
    /// Meaningful for a validated timeout; a non-positive ``milliseconds(_:)`` value is passed through unchanged.
    public var wireValue: Int32 {
        switch self {
        case .serverDefault: -1
        case .never: 0
        case .milliseconds(let milliseconds): milliseconds
        }
    }

    /// Reads an `expire_timeout` value: -1 is the server default, 0 is never, a positive number is milliseconds.
    ///
    /// Returns `nil` for other negative numbers, which the specification does not define.
    public init?(wireValue: Int32) {
        switch wireValue {
        case -1: self = .serverDefault
        case 0: self = .never
        case 1...: self = .milliseconds(wireValue)
        default: return nil
        }
    }
}

extension NotificationTimeout: Codable {
    /// Decodes a timeout from `"server-default"`, `"never"` or a number of milliseconds (-1 and 0 as on the wire).
    ///
    /// - Throws: `DecodingError` for other strings, for negative numbers other than -1, and for numbers that do not
    ///   fit in 32 bits.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // The number first: in a form that does not describe itself (the daemon's stored rows), a number's bytes may
        // also read as a string, while the two words never read as a number.
        if let number = try? container.decode(Int32.self) {
            guard let timeout = NotificationTimeout(wireValue: number) else { throw Self.unrecognized(in: container) }
            self = timeout
        } else if let word = try? container.decode(String.self) {
            switch word {
            case "server-default": self = .serverDefault
            case "never": self = .never
            default: throw Self.unrecognized(in: container)
            }
        } else {
            throw Self.unrecognized(in: container)
        }
    }

    /// Encodes the timeout in the form ``init(from:)`` reads.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .serverDefault: try container.encode("server-default")
        case .never: try container.encode("never")
        case .milliseconds(let milliseconds): try container.encode(milliseconds)
        }
    }

    private static func unrecognized(in container: any SingleValueDecodingContainer) -> DecodingError {
        DecodingError.dataCorruptedError(
            in: container,
            debugDescription:
                #"unrecognized timeout; use "server-default", "never" or a positive number of milliseconds"#
        )
    }
}
