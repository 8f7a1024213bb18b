#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension DBusValue: CustomStringConvertible {
    /// The value in GVariant text form, as `gdbus call` prints it: `'text'`, `uint32 7`, `[1, 2]`, `{'a': <true>}`,
    /// `@as []` for an empty array, `b'text'` for a byte array whose only NUL ends it. Type annotations are added
    /// wherever the text alone would read as another type.
    public var description: String {
        var output = ""
        write(to: &output, annotate: true)
        return output
    }

    private func write(to output: inout String, annotate: Bool) {
        switch self {
        case .byte(let value):
            if annotate { output += "byte " }
            output += "0x" + hex(value)
        case .boolean(let value):
            output += value ? "true" : "false"
        case .int16(let value):
            if annotate { output += "int16 " }
            output += String(value)
        case .uint16(let value):
            if annotate { output += "uint16 " }
            output += String(value)
        case .int32(let value):
            output += String(value)
        case .uint32(let value):
            if annotate { output += "uint32 " }
            output += String(value)
        case .int64(let value):
            if annotate { output += "int64 " }
            output += String(value)
        case .uint64(let value):
            if annotate { output += "uint64 " }
            output += String(value)
        case .double(let value):
            output += Self.doubleText(value)
        case .string(let value):
            output += Self.quoted(value)
        case .objectPath(let path):
            if annotate { output += "objectpath " }
            output += Self.quoted(path.rawValue)
        case .signature(let signature):
            if annotate { output += "signature " }
            output += Self.quoted(signature.rawValue)
        case .array(let element, let values):
            if element.rawValue == "y", let bytes = Self.byteString(values) {
                output += Self.quotedBytes(bytes)
                return
            }
            if values.isEmpty {
                if annotate { output += "@a\(element) " }
                output += "[]"
                return
            }
            output += "["
            for (index, value) in values.enumerated() {
                if index > 0 { output += ", " }
                // As GLib does, the first element carries the annotation; the rest share its type.
                value.write(to: &output, annotate: annotate && index == 0)
            }
            output += "]"
        case .dictionary(let key, let value, let entries):
            if entries.isEmpty {
                if annotate { output += "@a{\(key)\(value)} " }
                output += "{}"
                return
            }
            output += "{"
            for (index, entry) in entries.enumerated() {
                if index > 0 { output += ", " }
                entry.key.write(to: &output, annotate: annotate && index == 0)
                output += ": "
                entry.value.write(to: &output, annotate: annotate && index == 0)
            }
            output += "}"
        case .structure(let fields):
            output += "("
            for (index, field) in fields.enumerated() {
                if index > 0 { output += ", " }
                field.write(to: &output, annotate: annotate)
            }
            output += fields.count == 1 ? ",)" : ")"
        case .variant(let inner):
            output += "<"
            inner.write(to: &output, annotate: true)
            output += ">"
        case .unixFD(let descriptor):
            // GVariant text has no descriptors; gdbus prints their index in the message as a handle, and the number
            // stands in for it here.
            if annotate { output += "handle " }
            output += String(descriptor.rawValue)
        }
    }

    private func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xf)]])
    }

    /// A double as GLib prints it: `%.17g`, with `.0` added when the text would read as an integer.
    static func doubleText(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        var buffer = [CChar](repeating: 0, count: 40)
        _ = withVaList([value]) { vsnprintf(&buffer, buffer.count, "%.17g", $0) }
        // The C library writes the locale's decimal point, which may be any text; GVariant text always has '.'.
        var text = ""
        var afterPoint = false
        for byte in buffer.prefix(while: { $0 != 0 }).map(UInt8.init(bitPattern:)) {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "e"):
                text.unicodeScalars.append(Unicode.Scalar(byte))
                afterPoint = false
            default:
                if !afterPoint { text += "." }
                afterPoint = true
            }
        }
        if !text.contains(".") && !text.contains("e") { text += ".0" }
        return text
    }

    /// The bytes of an `ay` that GLib prints as a bytestring (`b'text'`): its only NUL is its last byte.
    private static func byteString(_ values: [DBusValue]) -> [UInt8]? {
        var bytes: [UInt8] = []
        for value in values {
            guard case .byte(let byte) = value else { return nil }
            bytes.append(byte)
        }
        guard bytes.last == 0, bytes.firstIndex(of: 0) == bytes.count - 1 else { return nil }
        return bytes.dropLast()
    }

    /// A bytestring as GLib prints it: `b'…'`, or `b"…"` when it holds a `'`, escaped as `g_strescape` does.
    private static func quotedBytes(_ bytes: [UInt8]) -> String {
        let quote = bytes.contains(UInt8(ascii: "'")) ? "\"" : "'"
        var output = "b" + quote
        for byte in bytes {
            switch byte {
            case 0x08: output += "\\b"
            case 0x0C: output += "\\f"
            case 0x0A: output += "\\n"
            case 0x0D: output += "\\r"
            case 0x09: output += "\\t"
            case 0x0B: output += "\\v"
            case UInt8(ascii: "\\"): output += "\\\\"
            case UInt8(ascii: "\""): output += "\\\""
            case ..<0x20, 0x7f...:
                let octal = String(byte, radix: 8)
                output += "\\" + String(repeating: "0", count: 3 - octal.count) + octal
            default:
                output.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return output + quote
    }

    /// Quotes a string the way GLib does: double quotes when the text holds a single quote, else single quotes;
    /// characters that do not print (controls, format characters, unassigned code points) as escapes.
    static func quoted(_ text: String) -> String {
        let quote: Character = text.contains("'") ? "\"" : "'"
        var output = String(quote)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\t": output += "\\t"
            case "\r": output += "\\r"
            case "\u{07}": output += "\\a"
            case "\u{08}": output += "\\b"
            case "\u{0B}": output += "\\v"
            case "\u{0C}": output += "\\f"
            case _ where Character(scalar) == quote:
                output += "\\" + String(quote)
            case _ where !isPrintable(scalar):
                let hexDigits = String(scalar.value, radix: 16)
                let (escape, width) = scalar.value < 0x10000 ? ("\\u", 4) : ("\\U", 8)
                output += escape + String(repeating: "0", count: width - hexDigits.count) + hexDigits
            default:
                output.unicodeScalars.append(scalar)
            }
        }
        output.append(quote)
        return output
    }

    /// Whether GLib prints `scalar` as it is (`g_unichar_isprint`).
    private static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .unassigned, .surrogate: false
        default: true
        }
    }
}

extension Array where Element == DBusValue {
    /// The values as a GVariant tuple, the way `gdbus call` prints a reply: `('text', uint32 7)`, `()` when empty.
    public var gvariantTupleText: String {
        DBusValue.tupleText(self)
    }
}

extension DBusValue {
    static func tupleText(_ values: [DBusValue]) -> String {
        if values.isEmpty { return "()" }
        return DBusValue.structure(values).description
    }
}
