#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Decodes a `Codable` value from the store's binary row form (``RowFormat``).
///
/// One decoder reads equal strings as one string: the rows of thousands of notifications repeat their app's name,
/// their category and the like, and each would otherwise be a copy of its own in memory. Use one decoder per thread.
package final class RowDecoder {
    /// The strings read so far that were worth sharing.
    private var strings: Set<String> = []

    package init() {}

    /// Whether `bytes` are a row of a format version this decoder reads (``RowFormat/readableVersions``).
    package static func isBinaryRow(_ bytes: [UInt8]) -> Bool {
        bytes.first.map(RowFormat.readableVersions.contains) ?? false
    }

    /// The value of the row `bytes`: read by hand when `Value` is ``RowReadable``, else through `Codable`.
    ///
    /// - Throws: `DecodingError` when the bytes are not a row of this format version or do not hold a `Value`.
    package func decode<Value: Decodable>(_ type: Value.Type, from bytes: [UInt8]) throws -> Value {
        guard Self.isBinaryRow(bytes) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: [],
                    debugDescription:
                        "not a row of a format version up to \(RowFormat.version): it starts with \(bytes.first ?? 0)"))
        }
        return try RowDecoding(
            row: Row(bytes: bytes, decoder: self), range: 1..<bytes.count, isNull: false, parentPath: [], key: nil
        ).decode(Value.self)
    }

    /// Strings longer than this are rarely repeated: a notification's text.
    private static let longestShared = 64
    /// How many strings are kept for sharing, at most.
    private static let sharedCapacity = 4096

    /// `string`, or the equal string read before; strings short enough to be stored inline (15 UTF-8 bytes) are never
    /// copies, and are returned as they are.
    func shared(_ string: String) -> String {
        let length = string.utf8.count
        guard length > 15, length <= Self.longestShared else { return string }
        if let index = strings.firstIndex(of: string) { return strings[index] }
        if strings.count < Self.sharedCapacity { strings.insert(string) }
        return string
    }
}

/// The bytes of one row, and the decoder reading it.
final class Row {
    let bytes: [UInt8]
    let decoder: RowDecoder
    /// The format version the row was written in (its first byte).
    let version: UInt8

    init(bytes: [UInt8], decoder: RowDecoder) {
        self.bytes = bytes
        self.decoder = decoder
        version = bytes.first ?? 0
    }
}

/// The `Decoder` of one value: the bytes of the whole row and the range of this value in them.
struct RowDecoding: Decoder {
    let row: Row
    var bytes: [UInt8] { row.bytes }
    let range: Range<Int>
    let isNull: Bool
    /// The path of the container this value is in, and its key there: the path is put together only when asked for
    /// (an error, a nested container), not for every value read.
    let parentPath: [any CodingKey]
    let key: (any CodingKey)?
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(row: Row, range: Range<Int>, isNull: Bool, parentPath: [any CodingKey], key: (any CodingKey)?) {
        self.row = row
        self.range = range
        self.isNull = isNull
        self.parentPath = parentPath
        self.key = key
    }

    var codingPath: [any CodingKey] { key.map { parentPath + [$0] } ?? parentPath }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try requireValue(of: KeyedDecodingContainer<Key>.self)
        return KeyedDecodingContainer(try RowKeyedDecoding<Key>(self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try requireValue(of: [Any].self)
        return try RowUnkeyedDecoding(self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { RowSingleValueDecoding(decoding: self) }

    func requireValue(of type: Any.Type) throws {
        guard !isNull else {
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath, debugDescription: "the value is nil"))
        }
    }

    /// The decoder of the frame at `index`, which it moves past the frame; its path is `parentPath` and `key`.
    ///
    /// - Throws: `DecodingError.dataCorrupted` when the frame is damaged or runs past `end`.
    func frame(
        at index: inout Int, end: Int, parentPath: [any CodingKey], key: (any CodingKey)?
    ) throws -> RowDecoding {
        let frame = try readFrame(at: &index, end: end)
        return RowDecoding(row: row, range: frame.value, isNull: frame.isNull, parentPath: parentPath, key: key)
    }

    /// Where the value of the frame at `index` lies, and whether it is `nil`; moves `index` past the frame.
    ///
    /// - Throws: `DecodingError.dataCorrupted` when the frame is damaged or runs past `end`.
    func readFrame(at index: inout Int, end: Int) throws -> (value: Range<Int>, isNull: Bool) {
        guard index < end else { throw corrupted("a value is cut short") }
        let marker = bytes[index]
        index += 1
        if marker == RowFormat.null { return (index..<index, true) }
        guard marker == RowFormat.present, let length = RowFormat.readVarint(bytes, at: &index, end: end),
            length <= UInt64(end - index)
        else { throw corrupted("a value's frame is damaged") }
        let start = index
        index += Int(length)
        return (start..<index, false)
    }

    func corrupted(_ what: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: codingPath, debugDescription: what))
    }

    // MARK: Single values

    func decodeBool() throws -> Bool {
        try requireValue(of: Bool.self)
        guard range.count == 1, bytes[range.lowerBound] <= 1 else { throw corrupted("not a Bool") }
        return bytes[range.lowerBound] == 1
    }

    func decodeString() throws -> String {
        try requireValue(of: String.self)
        return row.decoder.shared(String(decoding: bytes[range], as: UTF8.self))
    }

    func decodeDouble() throws -> Double { Double(bitPattern: try bitPattern(UInt64.self, of: Double.self)) }

    func decodeFloat() throws -> Float { Float(bitPattern: try bitPattern(UInt32.self, of: Float.self)) }

    /// The little-endian bit pattern of a floating-point `type`.
    private func bitPattern<Bits: FixedWidthInteger & UnsignedInteger>(_ bits: Bits.Type, of type: Any.Type) throws
        -> Bits
    {
        try requireValue(of: type)
        guard range.count == Bits.bitWidth / 8 else { throw corrupted("not a \(type)") }
        var pattern: Bits = 0
        for (shift, byte) in bytes[range].enumerated() { pattern |= Bits(byte) << (8 * shift) }
        return pattern
    }

    func decodeSigned<Integer: FixedWidthInteger & SignedInteger>(_ type: Integer.Type) throws -> Integer {
        try requireValue(of: type)
        var index = range.lowerBound
        guard let raw = RowFormat.readVarint(bytes, at: &index, end: range.upperBound), index == range.upperBound,
            let value = Integer(exactly: RowFormat.unzigzag(raw))
        else { throw corrupted("not a \(type)") }
        return value
    }

    func decodeUnsigned<Integer: FixedWidthInteger & UnsignedInteger>(_ type: Integer.Type) throws -> Integer {
        try requireValue(of: type)
        var index = range.lowerBound
        guard let raw = RowFormat.readVarint(bytes, at: &index, end: range.upperBound), index == range.upperBound,
            let value = Integer(exactly: raw)
        else { throw corrupted("not a \(type)") }
        return value
    }
}

struct RowKeyedDecoding<Key: CodingKey>: KeyedDecodingContainerProtocol {
    private let fields: RowFields
    var codingPath: [any CodingKey] { fields.codingPath }

    init(_ decoding: RowDecoding) throws {
        fields = try RowFields(decoding)
    }

    var allKeys: [Key] { fields.names.compactMap { Key(stringValue: $0) } }

    /// The value of `key`'s entry; `nil` when it has none.
    private func lookUp(_ key: Key) -> RowDecoding? { fields.entry(key.stringValue, key: key) }

    private func value(_ key: Key) throws -> RowDecoding { try fields.value(key.stringValue, key: key) }

    /// The value of `key`, or `nil` when it has none or holds `nil`: one lookup, where the protocol's default makes
    /// three.
    private func presentValue(_ key: Key) throws -> RowDecoding? { fields.presentValue(key.stringValue, key: key) }

    func contains(_ key: Key) -> Bool { lookUp(key) != nil }
    func decodeNil(forKey key: Key) throws -> Bool { try value(key).isNull }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try value(key).decodeBool() }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try value(key).decodeString() }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try value(key).decodeDouble() }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try value(key).decodeFloat() }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try value(key).decodeSigned(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try value(key).decodeSigned(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try value(key).decodeSigned(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try value(key).decodeSigned(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try value(key).decodeSigned(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try value(key).decodeUnsigned(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try value(key).decodeUnsigned(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try value(key).decodeUnsigned(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try value(key).decodeUnsigned(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try value(key).decodeUnsigned(type) }

    func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value {
        // A nil frame is refused by the value's own containers, unless the value is an optional.
        try value(key).decode(Value.self)
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try presentValue(key)?.decodeBool()
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try presentValue(key)?.decodeString()
    }

    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try presentValue(key)?.decodeDouble()
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try presentValue(key)?.decodeSigned(type)
    }

    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        try presentValue(key)?.decodeSigned(type)
    }

    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try presentValue(key)?.decodeSigned(type)
    }

    func decodeIfPresent<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value? {
        guard let value = try presentValue(key) else { return nil }
        return try value.decode(Value.self)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try value(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try value(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        guard let key = Key(stringValue: RowSuperKey.key.stringValue) else {
            throw fields.corrupted("no superclass value")
        }
        return try value(key)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder { try value(key) }
}

struct RowUnkeyedDecoding: UnkeyedDecodingContainer {
    private let decoding: RowDecoding
    private let frames: [RowDecoding]
    private(set) var currentIndex = 0
    let codingPath: [any CodingKey]
    var count: Int? { frames.count }
    var isAtEnd: Bool { currentIndex >= frames.count }

    init(_ decoding: RowDecoding) throws {
        self.decoding = decoding
        codingPath = decoding.codingPath
        var frames: [RowDecoding] = []
        var index = decoding.range.lowerBound
        while index < decoding.range.upperBound {
            frames.append(
                try decoding.frame(
                    at: &index, end: decoding.range.upperBound, parentPath: codingPath, key: RowIndexKey(frames.count)))
        }
        self.frames = frames
    }

    private mutating func next(_ type: Any.Type) throws -> RowDecoding {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type, .init(codingPath: codingPath, debugDescription: "the list has no element \(currentIndex)"))
        }
        currentIndex += 1
        return frames[currentIndex - 1]
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, frames[currentIndex].isNull else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type).decodeBool() }
    mutating func decode(_ type: String.Type) throws -> String { try next(type).decodeString() }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type).decodeDouble() }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(type).decodeFloat() }
    mutating func decode(_ type: Int.Type) throws -> Int { try next(type).decodeSigned(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type).decodeSigned(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type).decodeSigned(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type).decodeSigned(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type).decodeSigned(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type).decodeUnsigned(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type).decodeUnsigned(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type).decodeUnsigned(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type).decodeUnsigned(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type).decodeUnsigned(type) }

    mutating func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        try next(type).decode(Value.self)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try next(KeyedDecodingContainer<NestedKey>.self).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next([Any].self).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { try next(Any.self) }
}

struct RowSingleValueDecoding: SingleValueDecodingContainer {
    let decoding: RowDecoding
    var codingPath: [any CodingKey] { decoding.codingPath }

    func decodeNil() -> Bool { decoding.isNull }
    func decode(_ type: Bool.Type) throws -> Bool { try decoding.decodeBool() }
    func decode(_ type: String.Type) throws -> String { try decoding.decodeString() }
    func decode(_ type: Double.Type) throws -> Double { try decoding.decodeDouble() }
    func decode(_ type: Float.Type) throws -> Float { try decoding.decodeFloat() }
    func decode(_ type: Int.Type) throws -> Int { try decoding.decodeSigned(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoding.decodeSigned(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoding.decodeSigned(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoding.decodeSigned(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoding.decodeSigned(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoding.decodeUnsigned(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoding.decodeUnsigned(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoding.decodeUnsigned(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoding.decodeUnsigned(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoding.decodeUnsigned(type) }

    func decode<Value: Decodable>(_ type: Value.Type) throws -> Value { try decoding.decode(Value.self) }
}
