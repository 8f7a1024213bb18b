import NotificationModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The entries of one keyed container of a binary row (``RowFormat``), looked up by their keys' names.
///
/// `Codable`'s keyed containers read a row through generic wrappers that the runtime builds for each container of
/// each row; a ``RowReadable`` type reads its fields here directly, which is what start-up does for thousands of rows.
/// Both ways share the lookups and the errors: a `DecodingError` whose coding path names the field.
package final class RowFields {
    /// The row.
    private let row: Row
    /// Where the container is, for coding paths: put together only when an error or `Codable` asks for it.
    private let place: Place
    /// Where each entry's key and frame lie; found once, when the container is read.
    private let entries: [(key: Range<Int>, value: Range<Int>, isNull: Bool)]
    /// Where the last lookup stopped: keys are mostly asked for in the order they were written. Only the thread
    /// reading the row uses it.
    @exclusivity(unchecked) private var cursor = 0

    private enum Place {
        case path([any CodingKey])
        case entry(of: RowFields, key: any CodingKey)
    }

    /// The path of this container in the row.
    var codingPath: [any CodingKey] {
        switch place {
        case .path(let path): path
        case .entry(let parent, let key): parent.codingPath + [key]
        }
    }

    /// Reads the entries of the keyed container `decoding` holds.
    ///
    /// - Throws: `DecodingError.valueNotFound` when it holds `nil`, `DecodingError.dataCorrupted` when an entry is
    ///   damaged.
    convenience init(_ decoding: RowDecoding) throws {
        try self.init(decoding, place: .path(decoding.codingPath))
    }

    private init(_ decoding: RowDecoding, place: Place) throws {
        try decoding.requireValue(of: RowFields.self)
        row = decoding.row
        self.place = place
        let bytes = decoding.bytes
        var index = decoding.range.lowerBound
        let end = decoding.range.upperBound
        var entries: [(key: Range<Int>, value: Range<Int>, isNull: Bool)] = []
        // An entry takes at least three bytes (a key's length, a frame's marker and length): room for them all at
        // once, rather than growing the list entry by entry.
        entries.reserveCapacity(min(32, decoding.range.count / 3))
        while index < end {
            guard let length = RowFormat.readVarint(bytes, at: &index, end: end), length <= UInt64(end - index) else {
                throw decoding.corrupted("a key is damaged")
            }
            let key = index..<(index + Int(length))
            index += Int(length)
            let frame = try decoding.readFrame(at: &index, end: end)
            entries.append((key, frame.value, frame.isNull))
        }
        self.entries = entries
    }

    /// The names of the entries, in the order they were written.
    var names: [String] {
        entries.map { String(decoding: row.bytes[$0.key], as: UTF8.self) }
    }

    /// Where the value of the entry `name` lies, and whether it is `nil`; `nil` when there is no such entry.
    private func lookUp(_ name: String) -> (value: Range<Int>, isNull: Bool)? {
        var name = name
        let count = entries.count
        guard count > 0 else { return nil }
        return name.withUTF8 { wanted in
            row.bytes.withUnsafeBufferPointer { bytes in
                for step in 0..<count {
                    let position = (cursor + step) % count
                    let (stored, value, isNull) = entries[position]
                    guard stored.count == wanted.count else { continue }
                    if wanted.isEmpty
                        || memcmp(bytes.baseAddress! + stored.lowerBound, wanted.baseAddress!, wanted.count) == 0
                    {
                        cursor = position + 1 == count ? 0 : position + 1
                        return (value, isNull)
                    }
                }
                return nil
            }
        }
    }

    /// The value of the entry `name`, with `key` as its place in coding paths; `nil` when there is none.
    func entry(_ name: String, key: any CodingKey) -> RowDecoding? {
        guard let found = lookUp(name) else { return nil }
        return RowDecoding(row: row, range: found.value, isNull: found.isNull, parentPath: codingPath, key: key)
    }

    /// The value of the entry `name`, `nil` or not.
    ///
    /// - Throws: `DecodingError.keyNotFound` when there is none.
    func value(_ name: String, key: (any CodingKey)? = nil) throws -> RowDecoding {
        let key = key ?? RowNamedKey(name)
        guard let value = entry(name, key: key) else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "no value for '\(name)'"))
        }
        return value
    }

    /// The value of the entry `name`; `nil` when there is none or it holds `nil`.
    func presentValue(_ name: String, key: (any CodingKey)? = nil) -> RowDecoding? {
        guard let value = entry(name, key: key ?? RowNamedKey(name)), !value.isNull else { return nil }
        return value
    }

    // The typed reads below take the common case here, and leave anything else (a missing key, `nil`, a damaged
    // value) to `RowDecoding`, so that each error is the one `Codable`'s reading gives.

    /// The string `name` holds.
    ///
    /// - Throws: `DecodingError` when it is missing or `nil`.
    package func string(_ name: String) throws -> String {
        guard let found = lookUp(name), !found.isNull else { return try value(name).decodeString() }
        return row.decoder.shared(String(decoding: row.bytes[found.value], as: UTF8.self))
    }

    /// The string `name` holds; `nil` when it is missing or `nil`.
    package func optionalString(_ name: String) throws -> String? {
        guard let found = lookUp(name), !found.isNull else { return nil }
        return row.decoder.shared(String(decoding: row.bytes[found.value], as: UTF8.self))
    }

    /// The number `name` holds.
    ///
    /// - Throws: `DecodingError` when it is missing, `nil` or not a `Double`.
    package func double(_ name: String) throws -> Double {
        guard let found = lookUp(name), !found.isNull, let number = double(at: found.value) else {
            return try value(name).decodeDouble()
        }
        return number
    }

    /// The number `name` holds; `nil` when it is missing or `nil`.
    ///
    /// - Throws: `DecodingError` when it is not a `Double`.
    package func optionalDouble(_ name: String) throws -> Double? {
        guard let found = lookUp(name), !found.isNull else { return nil }
        guard let number = double(at: found.value) else { return try value(name).decodeDouble() }
        return number
    }

    /// The `Double` whose little-endian bit pattern is at `range`; `nil` when it is not eight bytes long.
    private func double(at range: Range<Int>) -> Double? {
        guard range.count == 8 else { return nil }
        var pattern: UInt64 = 0
        for (shift, byte) in row.bytes[range].enumerated() { pattern |= UInt64(byte) << (8 * shift) }
        return Double(bitPattern: pattern)
    }

    /// The keyed container `name` holds.
    ///
    /// - Throws: `DecodingError` when it is missing, `nil` or damaged.
    package func fields(_ name: String) throws -> RowFields {
        try RowFields(value(name), place: .entry(of: self, key: RowNamedKey(name)))
    }

    /// The keyed container `name` holds; `nil` when it is missing or `nil`.
    ///
    /// - Throws: `DecodingError` when it is damaged.
    package func optionalFields(_ name: String) throws -> RowFields? {
        guard let found = lookUp(name), !found.isNull else { return nil }
        return try fields(name)
    }

    /// The value `name` holds, read as `Value` reads itself (by hand when it is ``RowReadable``, else through
    /// `Codable`).
    ///
    /// - Throws: `DecodingError` when it is missing or is not a `Value`.
    package func decode<Value: Decodable>(_ type: Value.Type, _ name: String) throws -> Value {
        try value(name).decode(Value.self)
    }

    /// The value `name` holds, read as `Value`; `nil` when it is missing or `nil`.
    ///
    /// - Throws: `DecodingError` when it is not a `Value`.
    package func decodeIfPresent<Value: Decodable>(_ type: Value.Type, _ name: String) throws -> Value? {
        try presentValue(name)?.decode(Value.self)
    }

    /// An error that says what is wrong with the container's value, at its place in the row.
    package func corrupted(_ what: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: codingPath, debugDescription: what))
    }
}

/// A value the store reads from its row's fields by hand (``RowFields``), for the many rows start-up reads; it is
/// still written, and may still be read, through `Codable`, and both readings agree.
package protocol RowReadable {
    /// Reads the value from the entries of its keyed container.
    ///
    /// - Throws: `DecodingError`, as its `init(from:)` would.
    init(fields: RowFields) throws
}

extension RowDecoding {
    /// The value, read by hand when `Value` is ``RowReadable`` or a `JSONValue` of a row of version 2 or later
    /// (see ``RowFormat``), else through `Codable`.
    func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        if let readable = Value.self as? any RowReadable.Type {
            return try read(readable) as! Value
        }
        if Value.self == JSONValue.self, row.version >= 2 {
            return try decodeTaggedJSON() as! Value
        }
        return try Value(from: self)
    }

    private func read<Value: RowReadable>(_ type: Value.Type) throws -> Value {
        try Value(fields: RowFields(self))
    }
}

/// A key named at run time, in a coding path.
struct RowNamedKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
