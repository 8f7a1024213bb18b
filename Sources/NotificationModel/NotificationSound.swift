/// The sound played when a notification is shown.
///
/// Encoded as the string `"default"` or `"none"`, or as an object `{"name": "…"}` or `{"file": "…"}`.
public enum NotificationSound: Sendable, Hashable {
    /// Whatever the server plays for notifications; no sound hint is sent.
    case `default`

    /// A sound from the freedesktop sound theme, such as `message-new-instant` (hint `sound-name`).
    case named(String)

    /// A sound file, given as an absolute path (hint `sound-file`).
    case file(String)

    /// Silence, even where the server would play a sound (hint `suppress-sound`).
    case none
}

extension NotificationSound: Codable {
    private enum CodingKeys: String, CodingKey {
        case name
        case file
    }

    /// Decodes a sound from `"default"`, `"none"`, `{"name": "…"}` or `{"file": "…"}`.
    ///
    /// - Throws: `DecodingError` for any other value, with a message listing the accepted forms.
    public init(from decoder: any Decoder) throws {
        // The object forms first: in a form that does not describe itself (the daemon's stored rows), an object's
        // bytes would also read as a string, while the two words never read as an object.
        if let container = try? decoder.container(keyedBy: CodingKeys.self) {
            if let name = try container.decodeIfPresent(String.self, forKey: .name) {
                self = .named(name)
            } else if let path = try container.decodeIfPresent(String.self, forKey: .file) {
                self = .file(path)
            } else {
                throw Self.unrecognized(in: decoder)
            }
            return
        }
        guard let word = try? decoder.singleValueContainer().decode(String.self) else {
            throw Self.unrecognized(in: decoder)
        }
        switch word {
        case "default": self = .default
        case "none": self = .none
        default: throw Self.unrecognized(in: decoder)
        }
    }

    /// Encodes the sound in the form ``init(from:)`` reads.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .default:
            var container = encoder.singleValueContainer()
            try container.encode("default")
        case .none:
            var container = encoder.singleValueContainer()
            try container.encode("none")
        case .named(let name):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
        case .file(let path):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(path, forKey: .file)
        }
    }

    private static func unrecognized(in decoder: any Decoder) -> DecodingError {
        DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: decoder.codingPath,
                debugDescription: #"unrecognized sound; use "default", "none", {"name": "…"} or {"file": "…"}"#
            )
        )
    }
}
