/// One `a{sv}` kept in D-Bus wire form, so that a long reply can carry it again without building it value by value
/// (see ``DBusDictionaryList``).
///
/// The bytes are a whole message whose body is the dictionary, as
/// ``DBusWire/encodeSignal(path:interface:member:arguments:)`` makes it: they can be stored and read back as they
/// are, and say their own byte order.
public struct DBusWireDictionary: Sendable, Hashable {
    /// The message holding the dictionary.
    public let bytes: [UInt8]

    /// Marshals `entries` (variants are added where a value is not one).
    ///
    /// - Throws: ``DBusFailure`` (`InvalidArgs`) for a value that cannot be marshalled.
    public init(_ entries: [String: DBusValue]) throws(DBusFailure) {
        bytes = try DBusWire.encodeSignal(
            path: .root, interface: "org.freedesktop.DBus.Peer", member: "Entries", arguments: [.vardict(entries)])
    }

    /// Takes bytes made by ``init(_:)`` earlier, as a store gives them back. They are not checked here: a
    /// ``DBusDictionaryList`` that holds them is checked as a whole before it is sent.
    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Where the dictionary's entries lie in ``bytes``; `nil` when the bytes are not a message of this machine's
    /// byte order whose body is one `a{sv}`. The range starts 8-aligned from the message's start, as it would in any
    /// message, so it can be copied to any 8-aligned offset of another.
    var entries: Range<Int>? {
        let wire = WireReader(bytes)
        guard bytes.count >= 16, bytes[0] == WireWriter.nativeByteOrder, bytes[1] == 4,
            let bodyLength = wire.uint32(at: 4), let fieldsLength = wire.uint32(at: 12)
        else { return nil }
        let bodyStart = WireWriter.aligned(16 + Int(fieldsLength), to: 8)
        guard bodyStart + 8 <= bytes.count, bodyStart + Int(bodyLength) == bytes.count,
            let length = wire.uint32(at: bodyStart), bodyStart + 8 + Int(length) == bytes.count
        else { return nil }
        return (bodyStart + 8)..<bytes.count
    }
}

/// Reads unsigned integers of this machine's byte order from wire bytes, within bounds.
struct WireReader {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    func uint32(at offset: Int) -> UInt32? {
        guard offset >= 0, offset + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for index in 0..<4 { value |= UInt32(bytes[offset + index]) << (8 * index) }
        return WireWriter.nativeByteOrder == WireWriter.littleEndian ? value : value.byteSwapped
    }
}
