internal import CDBus

/// Whole D-Bus messages in their wire form, with no bus: for round-trip tests, fuzzing and tools.
public enum DBusWire {
    /// Serializes a signal message carrying `arguments`, as libdbus would send it.
    ///
    /// - Throws: ``DBusFailure`` (`InvalidArgs`) for an invalid name or argument.
    public static func encodeSignal(
        path: DBusObjectPath, interface: String, member: String, arguments: [DBusValue]
    ) throws(DBusFailure) -> [UInt8] {
        try DBusNames.checkInterface(interface)
        try DBusNames.checkMember(member)
        let message = try ConnectionCore.makeSignal(
            path: path, interface: interface, member: member, destination: nil, arguments: arguments)
        defer { dbus_message_unref(message) }
        // libdbus only marshals messages that have a serial, as a sent message would.
        dbus_message_set_serial(message, 1)
        var buffer: UnsafeMutablePointer<CChar>? = nil
        var length: Int32 = 0
        guard dbus_message_marshal(message, &buffer, &length) != 0, let buffer else {
            throw DBusFailure(name: DBusFailure.Name.noMemory, message: "cannot marshal message")
        }
        defer { dbus_free(buffer) }
        return buffer.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
            Array(UnsafeBufferPointer(start: $0, count: Int(length)))
        }
    }

    /// Reads a message from its wire form, checking it as libdbus checks what it receives, and returns its body's
    /// signature and values.
    ///
    /// - Throws: ``DBusFailure`` when the bytes are not a whole, valid message: `InvalidArgs` saying where they end
    ///   early, or libdbus's error name and reason for what it finds corrupt.
    public static func decodeArguments(from bytes: [UInt8]) throws(DBusFailure) -> (
        signature: String, arguments: [DBusValue]
    ) {
        // libdbus reports a message that ends early as being out of memory: say what is really wrong.
        switch try? messageLength(in: bytes) {
        case 0?:
            throw .invalidArgs(
                "the bytes hold an incomplete D-Bus message: a header takes at least 16 bytes, "
                    + "got \(bytes.count)")
        case let length? where length > bytes.count:
            throw .invalidArgs(
                "the bytes hold an incomplete D-Bus message: it is \(length) bytes long, "
                    + "got \(bytes.count)")
        default:
            break
        }
        let message = try demarshal(bytes)
        defer { dbus_message_unref(message) }
        let signature = ConnectionCore.string(dbus_message_get_signature(message)) ?? ""
        return (signature, try MessageCodec.values(of: message))
    }

    /// The message `bytes` hold, read and checked by libdbus as it reads what it receives; the caller owns it.
    ///
    /// - Throws: ``DBusFailure`` with libdbus's error name and reason when the bytes are not a valid message.
    static func demarshal(_ bytes: [UInt8]) throws(DBusFailure) -> OpaquePointer {
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        let message = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                dbus_message_demarshal(chars.baseAddress, Int32(chars.count), &error)
            }
        }
        guard let message else {
            throw ConnectionCore.failure(
                error, name: DBusFailure.Name.invalidArgs, message: "not a valid D-Bus message")
        }
        return message
    }

    /// How many bytes at the start of `bytes` make one whole message, `0` when more are needed, or throws when the
    /// header is invalid.
    public static func messageLength(in bytes: [UInt8]) throws(DBusFailure) -> Int {
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        let length = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                dbus_message_demarshal_bytes_needed(chars.baseAddress, Int32(chars.count))
            }
        }
        guard length >= 0 else { throw .invalidArgs("the bytes do not start with a valid D-Bus message header") }
        return Int(length)
    }
}
