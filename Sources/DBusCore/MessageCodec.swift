internal import CDBus

/// Writes ``DBusValue``s into a libdbus message and reads them back, through `DBusMessageIter`.
///
/// Values are validated in Swift before anything is appended: libdbus treats a malformed append as a fatal
/// programming error, and values here may come from a remote peer or a user.
enum MessageCodec {
    /// Appends `values` to the body of `message`; `validated` skips the checks when the caller already made them.
    static func append(_ values: [DBusValue], to message: OpaquePointer, validated: Bool = false) throws(DBusFailure) {
        if !validated {
            try values.validateMessageBody()
        }
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(message, &iter)
        for value in values {
            try append(value, to: &iter)
        }
    }

    private static func appendBasic<T>(_ value: T, type: Int32, to iter: inout DBusMessageIter) throws(DBusFailure) {
        var copy = value
        guard dbus_message_iter_append_basic(&iter, type, &copy) != 0 else { throw outOfMemory }
    }

    private static func appendString(_ text: String, type: Int32, to iter: inout DBusMessageIter) throws(DBusFailure) {
        let appended = text.withCString { pointer in
            var cString: UnsafePointer<CChar>? = pointer
            return dbus_message_iter_append_basic(&iter, type, &cString)
        }
        guard appended != 0 else { throw outOfMemory }
    }

    private static let outOfMemory = DBusFailure(name: DBusFailure.Name.noMemory, message: "libdbus is out of memory")

    private static func append(_ value: DBusValue, to iter: inout DBusMessageIter) throws(DBusFailure) {
        switch value {
        case .byte(let byte): try appendBasic(byte, type: CDBUS_TYPE_BYTE, to: &iter)
        case .boolean(let flag): try appendBasic(dbus_bool_t(flag ? 1 : 0), type: CDBUS_TYPE_BOOLEAN, to: &iter)
        case .int16(let number): try appendBasic(number, type: CDBUS_TYPE_INT16, to: &iter)
        case .uint16(let number): try appendBasic(number, type: CDBUS_TYPE_UINT16, to: &iter)
        case .int32(let number): try appendBasic(number, type: CDBUS_TYPE_INT32, to: &iter)
        case .uint32(let number): try appendBasic(number, type: CDBUS_TYPE_UINT32, to: &iter)
        case .int64(let number): try appendBasic(number, type: CDBUS_TYPE_INT64, to: &iter)
        case .uint64(let number): try appendBasic(number, type: CDBUS_TYPE_UINT64, to: &iter)
        case .double(let number): try appendBasic(number, type: CDBUS_TYPE_DOUBLE, to: &iter)
        case .string(let text): try appendString(text, type: CDBUS_TYPE_STRING, to: &iter)
        case .objectPath(let path): try appendString(path.rawValue, type: CDBUS_TYPE_OBJECT_PATH, to: &iter)
        case .signature(let signature): try appendString(signature.rawValue, type: CDBUS_TYPE_SIGNATURE, to: &iter)
        case .array(let element, let values):
            try container(CDBUS_TYPE_ARRAY, signature: element.rawValue, in: &iter) { sub throws(DBusFailure) in
                for value in values { try append(value, to: &sub) }
            }
        case .dictionary(let key, let valueType, let entries):
            let entrySignature = "{" + key.rawValue + valueType.rawValue + "}"
            try container(CDBUS_TYPE_ARRAY, signature: entrySignature, in: &iter) { sub throws(DBusFailure) in
                for entry in entries {
                    try container(CDBUS_TYPE_DICT_ENTRY, signature: nil, in: &sub) { pair throws(DBusFailure) in
                        try append(entry.key, to: &pair)
                        try append(entry.value, to: &pair)
                    }
                }
            }
        case .structure(let fields):
            try container(CDBUS_TYPE_STRUCT, signature: nil, in: &iter) { sub throws(DBusFailure) in
                for field in fields { try append(field, to: &sub) }
            }
        case .variant(let inner):
            try container(CDBUS_TYPE_VARIANT, signature: inner.signatureText, in: &iter) { sub throws(DBusFailure) in
                try append(inner, to: &sub)
            }
        case .unixFD(let descriptor):
            // libdbus duplicates the descriptor into the message; the value keeps its own.
            try withExtendedLifetime(descriptor) { () throws(DBusFailure) in
                try appendBasic(descriptor.rawValue, type: CDBUS_TYPE_UNIX_FD, to: &iter)
            }
        }
    }

    private static func container(
        _ type: Int32, signature: String?, in iter: inout DBusMessageIter,
        _ body: (inout DBusMessageIter) throws(DBusFailure) -> Void
    ) throws(DBusFailure) {
        var sub = DBusMessageIter()
        let opened: dbus_bool_t
        if let signature {
            opened = signature.withCString { dbus_message_iter_open_container(&iter, type, $0, &sub) }
        } else {
            opened = dbus_message_iter_open_container(&iter, type, nil, &sub)
        }
        guard opened != 0 else { throw outOfMemory }
        do {
            try body(&sub)
        } catch {
            dbus_message_iter_abandon_container(&iter, &sub)
            throw error
        }
        guard dbus_message_iter_close_container(&iter, &sub) != 0 else { throw outOfMemory }
    }

    /// Reads every value of the body of `message`.
    static func values(of message: OpaquePointer) throws(DBusFailure) -> [DBusValue] {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(message, &iter) != 0 else { return [] }
        return try readAll(&iter)
    }

    private static func readAll(_ iter: inout DBusMessageIter) throws(DBusFailure) -> [DBusValue] {
        var values: [DBusValue] = []
        while dbus_message_iter_get_arg_type(&iter) != CDBUS_TYPE_INVALID {
            values.append(try read(&iter))
            dbus_message_iter_next(&iter)
        }
        return values
    }

    private static func basic<T>(_ iter: inout DBusMessageIter, _ initial: T) -> T {
        var value = initial
        dbus_message_iter_get_basic(&iter, &value)
        return value
    }

    private static func string(_ iter: inout DBusMessageIter) -> String {
        var pointer: UnsafePointer<CChar>? = nil
        dbus_message_iter_get_basic(&iter, &pointer)
        guard let pointer else { return "" }
        return String(cString: pointer)
    }

    /// The signature of what `iter` points at and everything after it in its container.
    private static func remainingSignature(_ iter: inout DBusMessageIter) -> String {
        guard let raw = dbus_message_iter_get_signature(&iter) else { return "" }
        defer { dbus_free(raw) }
        return String(cString: raw)
    }

    private static func read(_ iter: inout DBusMessageIter) throws(DBusFailure) -> DBusValue {
        let type = dbus_message_iter_get_arg_type(&iter)
        switch type {
        case CDBUS_TYPE_BYTE: return .byte(basic(&iter, UInt8(0)))
        case CDBUS_TYPE_BOOLEAN: return .boolean(basic(&iter, dbus_bool_t(0)) != 0)
        case CDBUS_TYPE_INT16: return .int16(basic(&iter, Int16(0)))
        case CDBUS_TYPE_UINT16: return .uint16(basic(&iter, UInt16(0)))
        case CDBUS_TYPE_INT32: return .int32(basic(&iter, Int32(0)))
        case CDBUS_TYPE_UINT32: return .uint32(basic(&iter, UInt32(0)))
        case CDBUS_TYPE_INT64: return .int64(basic(&iter, Int64(0)))
        case CDBUS_TYPE_UINT64: return .uint64(basic(&iter, UInt64(0)))
        case CDBUS_TYPE_DOUBLE: return .double(basic(&iter, Double(0)))
        case CDBUS_TYPE_STRING: return .string(string(&iter))
        case CDBUS_TYPE_OBJECT_PATH: return .objectPath(DBusObjectPath(unchecked: string(&iter)))
        case CDBUS_TYPE_SIGNATURE: return .signature(DBusSignature(unchecked: string(&iter)))
        case CDBUS_TYPE_VARIANT:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            return .variant(try read(&sub))
        case CDBUS_TYPE_STRUCT:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            return .structure(try readAll(&sub))
        case CDBUS_TYPE_ARRAY:
            // The element type comes from the array's own signature, so an empty array keeps its type.
            let arraySignature = Array(remainingSignature(&iter).utf8)
            let elementSignature = try firstCompleteType(in: arraySignature.dropFirst())
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            if elementSignature.first == UInt8(ascii: "{") {
                let inner = Array(elementSignature.dropFirst().dropLast())
                let key = DBusSignature(unchecked: String(decoding: inner.prefix(1), as: UTF8.self))
                let value = DBusSignature(unchecked: String(decoding: inner.dropFirst(), as: UTF8.self))
                var entries: [DBusDictionaryEntry] = []
                while dbus_message_iter_get_arg_type(&sub) == CDBUS_TYPE_DICT_ENTRY {
                    var pair = DBusMessageIter()
                    dbus_message_iter_recurse(&sub, &pair)
                    let entryKey = try read(&pair)
                    dbus_message_iter_next(&pair)
                    let entryValue = try read(&pair)
                    entries.append(DBusDictionaryEntry(key: entryKey, value: entryValue))
                    dbus_message_iter_next(&sub)
                }
                return .dictionary(key: key, value: value, entries)
            }
            let element = DBusSignature(unchecked: String(decoding: elementSignature, as: UTF8.self))
            return .array(element: element, try readAll(&sub))
        case CDBUS_TYPE_UNIX_FD:
            // libdbus hands out a duplicate (close-on-exec) that the reader owns; -1 when the message names an index
            // past the descriptors it carries (a message decoded from bytes carries none) or none could be duplicated.
            let descriptor = basic(&iter, Int32(-1))
            guard descriptor >= 0 else {
                throw .invalidArgs(
                    "the message names a file descriptor ('h') it does not carry, or it could not be "
                        + "duplicated (too many open files?)")
            }
            return .unixFD(DBusFileDescriptor(taking: descriptor))
        default:
            throw .invalidSignature("unexpected type code \(type) in message")
        }
    }

    /// The first complete type at the start of `signature` (used to split an array's element type from what follows).
    private static func firstCompleteType(in signature: ArraySlice<UInt8>) throws(DBusFailure) -> ArraySlice<UInt8> {
        var depth = 0
        var index = signature.startIndex
        while index < signature.endIndex {
            let code = signature[index]
            index += 1
            switch code {
            case UInt8(ascii: "a"):
                continue
            case UInt8(ascii: "("), UInt8(ascii: "{"):
                depth += 1
            case UInt8(ascii: ")"), UInt8(ascii: "}"):
                depth -= 1
            default:
                break
            }
            if depth == 0 { return signature[signature.startIndex..<index] }
        }
        throw .invalidSignature("array signature is incomplete")
    }
}
