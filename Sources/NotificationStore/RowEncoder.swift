/// Encodes a `Codable` value in the store's binary row form (``RowFormat``).
struct RowEncoder {
    /// The row's bytes: the version byte, then `value`.
    ///
    /// - Throws: whatever `value`'s `encode(to:)` throws; the encoder itself refuses nothing.
    func encode<Value: Encodable>(_ value: Value) throws -> [UInt8] {
        let root = RowEncodingNode()
        try RowEncoding(node: root, codingPath: []).encodeValue(value)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1 + root.valueLength)
        bytes.append(RowFormat.version)
        root.writeValue(to: &bytes)
        return bytes
    }
}

/// One value as it is being encoded: a tree, since a container's length is known only once its value is done. A
/// container's plain values (numbers, strings, `Bool`, `nil`) are held in place; only nested values are nodes.
final class RowEncodingNode {
    enum Kind {
        case empty, null, single, keyed, unkeyed
    }

    /// A value as a container holds it.
    enum Value {
        case null
        case bool(Bool)
        case signed(Int64)
        case unsigned(UInt64)
        case double(Double)
        case float(Float)
        case string(String)
        case bytes([UInt8])
        case node(RowEncodingNode)
    }

    var kind = Kind.empty
    /// The value of a single-value node.
    var single = Value.null
    var entries: [(key: String, value: Value)] = []
    var elements: [Value] = []
    /// The length of the value's bytes, once ``valueLength`` has counted them.
    private var counted: Int?

    /// The length of the value's bytes (no frame); counted once, when the tree is written.
    var valueLength: Int {
        if let counted { return counted }
        var length = 0
        switch kind {
        case .empty, .null: break
        case .single: length = Self.length(of: single)
        case .keyed:
            for (key, value) in entries {
                let keyLength = key.utf8.count
                length += RowFormat.varintLength(UInt64(keyLength)) + keyLength + Self.frameLength(of: value)
            }
        case .unkeyed:
            for value in elements { length += Self.frameLength(of: value) }
        }
        counted = length
        return length
    }

    /// Appends the value's bytes (no frame).
    func writeValue(to output: inout [UInt8]) {
        switch kind {
        case .empty, .null: break
        case .single: Self.writeBytes(of: single, to: &output)
        case .keyed:
            for (key, value) in entries {
                RowFormat.appendVarint(UInt64(key.utf8.count), to: &output)
                output += key.utf8
                Self.writeFrame(of: value, to: &output)
            }
        case .unkeyed:
            for value in elements { Self.writeFrame(of: value, to: &output) }
        }
    }

    private static func length(of value: Value) -> Int {
        switch value {
        case .null: 0
        case .bool: 1
        case .signed(let number): RowFormat.varintLength(RowFormat.zigzag(number))
        case .unsigned(let number): RowFormat.varintLength(number)
        case .double: 8
        case .float: 4
        case .string(let text): text.utf8.count
        case .bytes(let bytes): bytes.count
        case .node(let node): node.valueLength
        }
    }

    private static func frameLength(of value: Value) -> Int {
        if case .null = value { return 1 }
        if case .node(let node) = value, node.kind == .null { return 1 }
        let length = length(of: value)
        return 1 + RowFormat.varintLength(UInt64(length)) + length
    }

    /// Appends `value`'s frame: ``RowFormat/null``, or ``RowFormat/present``, the length and the bytes.
    private static func writeFrame(of value: Value, to output: inout [UInt8]) {
        if case .null = value { return output.append(RowFormat.null) }
        if case .node(let node) = value, node.kind == .null { return output.append(RowFormat.null) }
        output.append(RowFormat.present)
        RowFormat.appendVarint(UInt64(length(of: value)), to: &output)
        writeBytes(of: value, to: &output)
    }

    private static func writeBytes(of value: Value, to output: inout [UInt8]) {
        switch value {
        case .null: break
        case .bool(let flag): output.append(flag ? 1 : 0)
        case .signed(let number): RowFormat.appendVarint(RowFormat.zigzag(number), to: &output)
        case .unsigned(let number): RowFormat.appendVarint(number, to: &output)
        case .double(let number): appendLittleEndian(number.bitPattern, to: &output)
        case .float(let number): appendLittleEndian(number.bitPattern, to: &output)
        case .string(let text): output += text.utf8
        case .bytes(let bytes): output += bytes
        case .node(let node): node.writeValue(to: &output)
        }
    }

    private static func appendLittleEndian<Bits: FixedWidthInteger>(_ bits: Bits, to output: inout [UInt8]) {
        for shift in stride(from: 0, to: Bits.bitWidth, by: 8) {
            output.append(UInt8(truncatingIfNeeded: bits >> shift))
        }
    }

    /// Makes this node hold the plain `value`.
    func set(_ value: Value) {
        kind = value.isNull ? .null : .single
        single = value
    }

    /// Adds the plain `value` under `key` of this keyed node.
    func add(_ key: String, _ value: Value) { entries.append((key, value)) }

    /// Adds the plain `value` as the next element of this unkeyed node.
    func append(_ value: Value) { elements.append(value) }

    /// A new child node under `key` of this keyed node.
    func child(_ key: String) -> RowEncodingNode {
        let node = RowEncodingNode()
        entries.append((key, .node(node)))
        return node
    }

    /// A new node as the next element of this unkeyed node.
    func element() -> RowEncodingNode {
        let node = RowEncodingNode()
        elements.append(.node(node))
        return node
    }
}

extension RowEncodingNode.Value {
    var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

/// The `Encoder` of one node.
struct RowEncoding: Encoder {
    let node: RowEncodingNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if node.kind != .keyed {
            node.kind = .keyed
            node.entries = []
        }
        return KeyedEncodingContainer(RowKeyedEncoding<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if node.kind != .unkeyed {
            node.kind = .unkeyed
            node.elements = []
        }
        return RowUnkeyedEncoding(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        RowSingleValueEncoding(node: node, codingPath: codingPath)
    }
}

struct RowKeyedEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: RowEncodingNode
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) { node.add(key.stringValue, .null) }
    mutating func encode(_ value: Bool, forKey key: Key) { node.add(key.stringValue, .bool(value)) }
    mutating func encode(_ value: String, forKey key: Key) { node.add(key.stringValue, .string(value)) }
    mutating func encode(_ value: Double, forKey key: Key) { node.add(key.stringValue, .double(value)) }
    mutating func encode(_ value: Float, forKey key: Key) { node.add(key.stringValue, .float(value)) }
    mutating func encode(_ value: Int, forKey key: Key) { node.add(key.stringValue, .signed(Int64(value))) }
    mutating func encode(_ value: Int8, forKey key: Key) { node.add(key.stringValue, .signed(Int64(value))) }
    mutating func encode(_ value: Int16, forKey key: Key) { node.add(key.stringValue, .signed(Int64(value))) }
    mutating func encode(_ value: Int32, forKey key: Key) { node.add(key.stringValue, .signed(Int64(value))) }
    mutating func encode(_ value: Int64, forKey key: Key) { node.add(key.stringValue, .signed(value)) }
    mutating func encode(_ value: UInt, forKey key: Key) { node.add(key.stringValue, .unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt8, forKey key: Key) { node.add(key.stringValue, .unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt16, forKey key: Key) { node.add(key.stringValue, .unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt32, forKey key: Key) { node.add(key.stringValue, .unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt64, forKey key: Key) { node.add(key.stringValue, .unsigned(value)) }

    mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws {
        try RowEncoding(node: node.child(key.stringValue), codingPath: codingPath + [key]).encodeValue(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        RowEncoding(node: node.child(key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        RowEncoding(node: node.child(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        RowEncoding(node: node.child(RowSuperKey.key.stringValue), codingPath: codingPath + [RowSuperKey.key])
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        RowEncoding(node: node.child(key.stringValue), codingPath: codingPath + [key])
    }
}

struct RowUnkeyedEncoding: UnkeyedEncodingContainer {
    let node: RowEncodingNode
    let codingPath: [any CodingKey]
    var count: Int { node.elements.count }

    private var nextPath: [any CodingKey] { codingPath + [RowIndexKey(count)] }

    mutating func encodeNil() { node.append(.null) }
    mutating func encode(_ value: Bool) { node.append(.bool(value)) }
    mutating func encode(_ value: String) { node.append(.string(value)) }
    mutating func encode(_ value: Double) { node.append(.double(value)) }
    mutating func encode(_ value: Float) { node.append(.float(value)) }
    mutating func encode(_ value: Int) { node.append(.signed(Int64(value))) }
    mutating func encode(_ value: Int8) { node.append(.signed(Int64(value))) }
    mutating func encode(_ value: Int16) { node.append(.signed(Int64(value))) }
    mutating func encode(_ value: Int32) { node.append(.signed(Int64(value))) }
    mutating func encode(_ value: Int64) { node.append(.signed(value)) }
    mutating func encode(_ value: UInt) { node.append(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt8) { node.append(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt16) { node.append(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt32) { node.append(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt64) { node.append(.unsigned(value)) }

    mutating func encode<Value: Encodable>(_ value: Value) throws {
        let path = nextPath
        try RowEncoding(node: node.element(), codingPath: path).encodeValue(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let path = nextPath
        return RowEncoding(node: node.element(), codingPath: path).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = nextPath
        return RowEncoding(node: node.element(), codingPath: path).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let path = nextPath
        return RowEncoding(node: node.element(), codingPath: path)
    }
}

struct RowSingleValueEncoding: SingleValueEncodingContainer {
    let node: RowEncodingNode
    let codingPath: [any CodingKey]

    mutating func encodeNil() { node.set(.null) }
    mutating func encode(_ value: Bool) { node.set(.bool(value)) }
    mutating func encode(_ value: String) { node.set(.string(value)) }
    mutating func encode(_ value: Double) { node.set(.double(value)) }
    mutating func encode(_ value: Float) { node.set(.float(value)) }
    mutating func encode(_ value: Int) { node.set(.signed(Int64(value))) }
    mutating func encode(_ value: Int8) { node.set(.signed(Int64(value))) }
    mutating func encode(_ value: Int16) { node.set(.signed(Int64(value))) }
    mutating func encode(_ value: Int32) { node.set(.signed(Int64(value))) }
    mutating func encode(_ value: Int64) { node.set(.signed(value)) }
    mutating func encode(_ value: UInt) { node.set(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt8) { node.set(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt16) { node.set(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt32) { node.set(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt64) { node.set(.unsigned(value)) }

    mutating func encode<Value: Encodable>(_ value: Value) throws {
        try RowEncoding(node: node, codingPath: codingPath).encodeValue(value)
    }
}

/// The key of a superclass's value, as `Codable`'s default.
enum RowSuperKey: String, CodingKey {
    case key = "super"
}

/// The position of an element of an unkeyed container, in a coding path.
struct RowIndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }

    init(_ index: Int) { intValue = index }
    init?(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}
