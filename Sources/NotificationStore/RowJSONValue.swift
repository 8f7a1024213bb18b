import NotificationModel

/// The kinds of a `JSONValue` in a row of format version 2 or later (see ``RowFormat``): the key of the one entry of
/// its keyed container, so that it reads back as the kind it was. `JSONValue`'s own `Codable` tells the kinds apart by
/// trying each, which only a form that describes itself, such as JSON, can answer.
enum RowJSONKind: String, CodingKey {
    case null, bool, number, string, array, object
}

/// A member name of a JSON object, as a key of a row's keyed container.
struct RowMemberKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension RowEncoding {
    /// Encodes `value` into this encoder's node: a `JSONValue` tagged with its kind, anything else through its own
    /// `encode(to:)`.
    func encodeValue<Value: Encodable>(_ value: Value) throws {
        guard let json = value as? JSONValue else { return try value.encode(to: self) }
        var container = self.container(keyedBy: RowJSONKind.self)
        switch json {
        case .null:
            try container.encodeNil(forKey: .null)
        case .bool(let bool):
            try container.encode(bool, forKey: .bool)
        case .number(let number):
            try container.encode(number, forKey: .number)
        case .string(let string):
            try container.encode(string, forKey: .string)
        case .array(let elements):
            var nested = container.nestedUnkeyedContainer(forKey: .array)
            for element in elements { try nested.encode(element) }
        case .object(let members):
            var nested = container.nestedContainer(keyedBy: RowMemberKey.self, forKey: .object)
            // In name order, so that equal objects make equal rows.
            for (name, member) in members.sorted(by: { $0.key < $1.key }) {
                try nested.encode(member, forKey: RowMemberKey(stringValue: name))
            }
        }
    }
}

extension RowDecoding {
    /// Reads a `JSONValue` that ``RowEncoding/encodeValue(_:)`` wrote.
    ///
    /// - Throws: `DecodingError.dataCorrupted` when the container names no kind, or its value is not of that kind.
    func decodeTaggedJSON() throws -> JSONValue {
        let container = try container(keyedBy: RowJSONKind.self)
        if container.contains(.null) { return .null }
        if let bool = try container.decodeIfPresent(Bool.self, forKey: .bool) { return .bool(bool) }
        if let number = try container.decodeIfPresent(Double.self, forKey: .number) { return .number(number) }
        if let string = try container.decodeIfPresent(String.self, forKey: .string) { return .string(string) }
        if container.contains(.array) {
            var nested = try container.nestedUnkeyedContainer(forKey: .array)
            var elements: [JSONValue] = []
            while !nested.isAtEnd { elements.append(try nested.decode(JSONValue.self)) }
            return .array(elements)
        }
        if container.contains(.object) {
            let nested = try container.nestedContainer(keyedBy: RowMemberKey.self, forKey: .object)
            var members: [String: JSONValue] = [:]
            for key in nested.allKeys { members[key.stringValue] = try nested.decode(JSONValue.self, forKey: key) }
            return .object(members)
        }
        throw corrupted("a JSON value without its kind")
    }
}
