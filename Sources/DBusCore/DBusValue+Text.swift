extension DBusValue: CustomStringConvertible {
    /// The value in GVariant text form, as `gdbus call` prints it: `'text'`, `uint32 7`, `[1, 2]`, `{'a': <true>}`,
    /// `@as []` for an empty array. Type annotations are added wherever the text alone would read as another type.
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
            output += value.isFinite ? String(value) : (value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf"))
        case .string(let value):
            output += Self.quoted(value)
        case .objectPath(let path):
            if annotate { output += "objectpath " }
            output += Self.quoted(path.rawValue)
        case .signature(let signature):
            if annotate { output += "signature " }
            output += Self.quoted(signature.rawValue)
        case .array(let element, let values):
            if values.isEmpty {
                output += "@a\(element) []"
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
                output += "@a{\(key)\(value)} {}"
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
        }
    }

    private func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xf)]])
    }

    /// Quotes a string the way GLib does: single quotes unless the text holds a single quote and no double quote.
    static func quoted(_ text: String) -> String {
        let quote: Character = (text.contains("'") && !text.contains("\"")) ? "\"" : "'"
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
            case _ where scalar.value < 0x20 || scalar.value == 0x7f:
                let hexDigits = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hexDigits.count) + hexDigits
            default:
                output.unicodeScalars.append(scalar)
            }
        }
        output.append(quote)
        return output
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
