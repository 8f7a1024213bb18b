/// Encodes a `Codable` value in the store's binary row form (``RowFormat``).
struct RowEncoder {
    /// The row's bytes: the version byte, then `value`.
    ///
    /// - Throws: whatever `value`'s `encode(to:)` throws; the encoder itself refuses nothing.
    func encode<Value: Encodable>(_ value: Value) throws -> [UInt8] {
        let root = RowEncodingNode()
        try value.encode(to: RowEncoding(node: root, codingPath: []))
        var bytes = [RowFormat.version]
        root.writeValue(to: &bytes)
        return bytes
    }
}

/// One value as it is being encoded: a tree, since a container's length is known only once its value is done.
final class RowEncodingNode {
    enum Kind {
        case empty, null, single, keyed, unkeyed
    }

    var kind = Kind.empty
    var bytes: [UInt8] = []
    var entries: [(key: String, node: RowEncodingNode)] = []
    var elements: [RowEncodingNode] = []

    /// Appends the value's bytes (no frame).
    func writeValue(to output: inout [UInt8]) {
        switch kind {
        case .empty, .null: break
        case .single: output += bytes
        case .keyed:
            for (key, node) in entries {
                RowFormat.appendVarint(UInt64(key.utf8.count), to: &output)
                output += key.utf8
                node.writeFrame(to: &output)
            }
        case .unkeyed:
            for node in elements { node.writeFrame(to: &output) }
        }
    }

    /// Appends the value's frame: ``RowFormat/null``, or ``RowFormat/present``, the length and the value.
    func writeFrame(to output: inout [UInt8]) {
        if kind == .null {
            output.append(RowFormat.null)
            return
        }
        output.append(RowFormat.present)
        if kind == .single {
            RowFormat.appendVarint(UInt64(bytes.count), to: &output)
            output += bytes
            return
        }
        var value: [UInt8] = []
        writeValue(to: &value)
        RowFormat.appendVarint(UInt64(value.count), to: &output)
        output += value
    }

    func set(_ single: [UInt8]) {
        kind = .single
        bytes = single
    }

    func setSigned(_ value: Int64) {
        var bytes: [UInt8] = []
        RowFormat.appendVarint(RowFormat.zigzag(value), to: &bytes)
        set(bytes)
    }

    func setUnsigned(_ value: UInt64) {
        var bytes: [UInt8] = []
        RowFormat.appendVarint(value, to: &bytes)
        set(bytes)
    }

    func setDouble(_ value: Double) {
        set(withUnsafeBytes(of: value.bitPattern.littleEndian, Array.init))
    }

    func setFloat(_ value: Float) {
        set(withUnsafeBytes(of: value.bitPattern.littleEndian, Array.init))
    }

    /// A new child under `key` of this keyed value.
    func child(_ key: String) -> RowEncodingNode {
        let node = RowEncodingNode()
        entries.append((key, node))
        return node
    }

    /// A new element of this unkeyed value.
    func element() -> RowEncodingNode {
        let node = RowEncodingNode()
        elements.append(node)
        return node
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

    mutating func encodeNil(forKey key: Key) { node.child(key.stringValue).kind = .null }
    mutating func encode(_ value: Bool, forKey key: Key) { node.child(key.stringValue).set([value ? 1 : 0]) }
    mutating func encode(_ value: String, forKey key: Key) { node.child(key.stringValue).set(Array(value.utf8)) }
    mutating func encode(_ value: Double, forKey key: Key) { node.child(key.stringValue).setDouble(value) }
    mutating func encode(_ value: Float, forKey key: Key) { node.child(key.stringValue).setFloat(value) }
    mutating func encode(_ value: Int, forKey key: Key) { node.child(key.stringValue).setSigned(Int64(value)) }
    mutating func encode(_ value: Int8, forKey key: Key) { node.child(key.stringValue).setSigned(Int64(value)) }
    mutating func encode(_ value: Int16, forKey key: Key) { node.child(key.stringValue).setSigned(Int64(value)) }
    mutating func encode(_ value: Int32, forKey key: Key) { node.child(key.stringValue).setSigned(Int64(value)) }
    mutating func encode(_ value: Int64, forKey key: Key) { node.child(key.stringValue).setSigned(value) }
    mutating func encode(_ value: UInt, forKey key: Key) { node.child(key.stringValue).setUnsigned(UInt64(value)) }
    mutating func encode(_ value: UInt8, forKey key: Key) { node.child(key.stringValue).setUnsigned(UInt64(value)) }
    mutating func encode(_ value: UInt16, forKey key: Key) { node.child(key.stringValue).setUnsigned(UInt64(value)) }
    mutating func encode(_ value: UInt32, forKey key: Key) { node.child(key.stringValue).setUnsigned(UInt64(value)) }
    mutating func encode(_ value: UInt64, forKey key: Key) { node.child(key.stringValue).setUnsigned(value) }

    mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws {
        try value.encode(to: RowEncoding(node: node.child(key.stringValue), codingPath: codingPath + [key]))
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

    mutating func encodeNil() { node.element().kind = .null }
    mutating func encode(_ value: Bool) { node.element().set([value ? 1 : 0]) }
    mutating func encode(_ value: String) { node.element().set(Array(value.utf8)) }
    mutating func encode(_ value: Double) { node.element().setDouble(value) }
    mutating func encode(_ value: Float) { node.element().setFloat(value) }
    mutating func encode(_ value: Int) { node.element().setSigned(Int64(value)) }
    mutating func encode(_ value: Int8) { node.element().setSigned(Int64(value)) }
    mutating func encode(_ value: Int16) { node.element().setSigned(Int64(value)) }
    mutating func encode(_ value: Int32) { node.element().setSigned(Int64(value)) }
    mutating func encode(_ value: Int64) { node.element().setSigned(value) }
    mutating func encode(_ value: UInt) { node.element().setUnsigned(UInt64(value)) }
    mutating func encode(_ value: UInt8) { node.element().setUnsigned(UInt64(value)) }
    mutating func encode(_ value: UInt16) { node.element().setUnsigned(UInt64(value)) }
    mutating func encode(_ value: UInt32) { node.element().setUnsigned(UInt64(value)) }
    mutating func encode(_ value: UInt64) { node.element().setUnsigned(value) }

    mutating func encode<Value: Encodable>(_ value: Value) throws {
        let path = nextPath
        try value.encode(to: RowEncoding(node: node.element(), codingPath: path))
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

    mutating func encodeNil() { node.kind = .null }
    mutating func encode(_ value: Bool) { node.set([value ? 1 : 0]) }
    mutating func encode(_ value: String) { node.set(Array(value.utf8)) }
    mutating func encode(_ value: Double) { node.setDouble(value) }
    mutating func encode(_ value: Float) { node.setFloat(value) }
    mutating func encode(_ value: Int) { node.setSigned(Int64(value)) }
    mutating func encode(_ value: Int8) { node.setSigned(Int64(value)) }
    mutating func encode(_ value: Int16) { node.setSigned(Int64(value)) }
    mutating func encode(_ value: Int32) { node.setSigned(Int64(value)) }
    mutating func encode(_ value: Int64) { node.setSigned(value) }
    mutating func encode(_ value: UInt) { node.setUnsigned(UInt64(value)) }
    mutating func encode(_ value: UInt8) { node.setUnsigned(UInt64(value)) }
    mutating func encode(_ value: UInt16) { node.setUnsigned(UInt64(value)) }
    mutating func encode(_ value: UInt32) { node.setUnsigned(UInt64(value)) }
    mutating func encode(_ value: UInt64) { node.setUnsigned(value) }

    mutating func encode<Value: Encodable>(_ value: Value) throws {
        try value.encode(to: RowEncoding(node: node, codingPath: codingPath))
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
