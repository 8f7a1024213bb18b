internal import CDBus

extension ConnectionCore {
    /// A method return around a body already in wire form, checked by libdbus as it checks a received message.
    ///
    /// The header is written here, with the fields a return carries (the serial it answers, its destination, its
    /// body's signature: <https://dbus.freedesktop.org/doc/dbus-specification.html#message-protocol-header-fields>),
    /// and libdbus reads the whole message back, so nothing reaches the bus that libdbus would not have built itself.
    ///
    /// - Throws: ``DBusFailure`` (`InvalidArgs`) with libdbus's reason when the body does not match `signature`.
    static func makeMethodReturn(signature: String, body: [UInt8], serial: UInt32, to destination: String)
        throws(DBusFailure) -> OpaquePointer
    {
        var header = WireWriter()
        header.byte(WireWriter.nativeByteOrder)
        header.byte(UInt8(CDBUS_MESSAGE_TYPE_METHOD_RETURN))
        header.byte(UInt8(DBUS_HEADER_FLAG_NO_REPLY_EXPECTED))
        header.byte(1)  // protocol version
        header.uint32(UInt32(body.count))
        // Any serial will do for a return, which nothing answers; libdbus keeps the one a message already has.
        header.uint32(1)
        header.uint32(0)
        let fieldsStart = header.bytes.count
        header.pad(to: 8)
        header.byte(UInt8(DBUS_HEADER_FIELD_REPLY_SERIAL))
        _ = header.variant(.uint32(serial))
        if !destination.isEmpty {
            header.pad(to: 8)
            header.byte(UInt8(DBUS_HEADER_FIELD_DESTINATION))
            _ = header.variant(.string(destination))
        }
        header.pad(to: 8)
        header.byte(UInt8(DBUS_HEADER_FIELD_SIGNATURE))
        header.signature("g")
        header.signature(signature)
        header.patch(UInt32(header.bytes.count - fieldsStart), at: fieldsStart - 4)
        header.pad(to: 8)
        do {
            return try DBusWire.demarshal(header.bytes + body)
        } catch {
            throw .invalidArgs("the reply written in wire form is not valid: \(error.message)")
        }
    }
}
