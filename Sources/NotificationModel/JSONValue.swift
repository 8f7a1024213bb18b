/// A JSON value: what ``NotificationContent/userInfo`` and ``NotificationResponse/userInfo`` hold.
///
/// `Codable` as the plain JSON value it stands for (an object is encoded as an object, a number as a number), not as a
/// tagged enum. ``jsonText`` and ``init(parsing:)`` write and read JSON text without Foundation.
///
/// Numbers are `Double`, as in JavaScript: integers beyond ±2^53 lose precision. Non-finite numbers cannot be written
/// as JSON; validation of a notification rejects them.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object. Keys are unordered; ``jsonText`` writes them sorted.
    case object([String: JSONValue])
}

extension JSONValue: Codable {
    /// Decodes whichever JSON value the decoder holds.
    ///
    /// - Throws: `DecodingError.dataCorrupted` when the value is none of the six JSON kinds.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            // Bool before Double, so that `true` is not read as 1.
            self = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else if let object = try? container.decode([String: JSONValue].self) {
            self = .object(object)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON value")
        }
    }

    /// Encodes the value as the plain JSON value it stands for.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let bool): try container.encode(bool)
        case .number(let number): try container.encode(number)
        case .string(let string): try container.encode(string)
        case .array(let array): try container.encode(array)
        case .object(let object): try container.encode(object)
        }
    }
}

extension JSONValue: ExpressibleByNilLiteral {
    /// Makes ``null``.
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    /// Makes ``bool(_:)``.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    /// Makes ``number(_:)``.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
}

extension JSONValue: ExpressibleByFloatLiteral {
    /// Makes ``number(_:)``.
    public init(floatLiteral value: Double) { self = .number(value) }
}

extension JSONValue: ExpressibleByStringLiteral {
    /// Makes ``string(_:)``.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
    /// Makes ``array(_:)``.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// Makes ``object(_:)``; when a key is repeated, the last value wins.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
