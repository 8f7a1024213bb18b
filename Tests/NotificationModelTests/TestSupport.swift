import Foundation
import NotificationModel

/// Decodes a value from JSON text with Foundation's decoder, as an app reading a stored file would.
func decode<T: Decodable>(_ type: T.Type, from json: String) throws -> T {
    try JSONDecoder().decode(type, from: Data(json.utf8))
}

/// Encodes a value with Foundation's encoder and reads the result back with the model's own parser, so tests can
/// look at the keys and values that were written.
func encodedJSON(_ value: some Encodable) throws -> JSONValue {
    let data = try JSONEncoder().encode(value)
    return try JSONValue(parsing: String(decoding: data, as: UTF8.self))
}

/// Encodes a value and decodes it again.
func roundTrip<T: Codable>(_ value: T) throws -> T {
    try JSONDecoder().decode(T.self, from: JSONEncoder().encode(value))
}

extension JSONValue {
    /// The member under `key` when this is an object, `nil` otherwise.
    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }
}

/// A string of `count` copies of `piece`.
func repeated(_ piece: String, _ count: Int) -> String {
    String(repeating: piece, count: count)
}
