/// An `aa{sv}` reply written straight in wire form, from dictionaries kept marshalled (``DBusWireDictionary``), each
/// with a few basic entries added (an id, a date): for replies of thousands of dictionaries, which marshalling value by
/// value would spend many microseconds each on.
///
/// Send it with ``DBusMethodCall/reply(_:)-(DBusDictionaryList)``, which has libdbus check the whole message first.
public struct DBusDictionaryList: Sendable {
    /// The body written so far. It starts where a message body does, 8-aligned, so offsets within it align as they
    /// will in the message.
    private var writer = WireWriter()
    /// How many dictionaries it holds.
    public private(set) var count = 0

    /// An empty list.
    public init() {
        writer.uint32(0)
    }

    /// An empty list with room for about `bytes` bytes of dictionaries (what their ``DBusWireDictionary/bytes``
    /// come to, plus their added entries), so that a long list is written without being moved as it grows.
    public init(reservingCapacity bytes: Int) {
        writer.reserveCapacity(4 + bytes)
        writer.uint32(0)
    }

    /// Adds `dictionary` with `extra` entries after its own (each value a basic type: string, integer, double,
    /// boolean, object path).
    ///
    /// - Throws: ``DBusFailure`` (`InvalidArgs`) when `dictionary` is not a marshalled `a{sv}` of this machine's byte
    ///   order or an extra value is not basic; the list is as it was.
    public mutating func append(_ dictionary: DBusWireDictionary, adding extra: [(key: String, value: DBusValue)])
        throws(DBusFailure)
    {
        guard let entries = dictionary.entries else {
            throw .invalidArgs("the stored dictionary is not a marshalled a{sv} of this machine's byte order")
        }
        let saved = writer.bytes.count
        writer.uint32(0)
        let lengthOffset = writer.bytes.count - 4
        writer.pad(to: 8)
        let start = writer.bytes.count
        writer.append(contentsOf: dictionary.bytes[entries])
        for (key, value) in extra {
            writer.pad(to: 8)
            writer.string(key)
            guard writer.variant(value.unwrappedVariant) else {
                writer.truncate(to: saved)
                throw .invalidArgs(
                    "entry '\(key)' has a value of type '\(value.signatureText)'; only basic values "
                        + "can be added to a stored dictionary")
            }
        }
        writer.patch(UInt32(writer.bytes.count - start), at: lengthOffset)
        writer.patch(UInt32(writer.bytes.count - 4), at: 0)
        count += 1
    }

    /// The body: an `aa{sv}` in this machine's byte order, meant to start 8-aligned in a message.
    var body: [UInt8] { writer.bytes }
}
