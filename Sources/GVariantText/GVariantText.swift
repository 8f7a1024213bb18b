internal import CGLib
import DBusCore

/// GVariant text form, as `gdbus call` reads it (`<{'a': <[1, 2]>}>`, `uint32 7`, `@as []`), parsed by GLib's
/// `g_variant_parse` into a ``DBusValue``.
public enum GVariantText {
    /// Parses one value.
    ///
    /// - Parameters:
    ///   - text: the value in GVariant text form.
    ///   - type: the D-Bus type the value must have, which also lets text such as `[]` or `7` take that type; `nil`
    ///     lets GLib infer the type (`7` is `i`, `'x'` is `s`).
    /// - Throws: ``GVariantTextError`` with GLib's message (which starts with the place in the text) when the text does not parse,
    ///   does not have `type`, or holds a type D-Bus cannot carry (maybe types, `()`, file descriptors).
    public static func parse(_ text: String, as type: DBusSignature? = nil) throws(GVariantTextError) -> DBusValue {
        var expected: OpaquePointer?
        if let type {
            guard type.isSingleCompleteType, g_variant_type_string_is_valid(type.rawValue) != 0 else {
                throw GVariantTextError("'\(type)' is not a single D-Bus type")
            }
            expected = g_variant_type_new(type.rawValue)
        }
        defer { if let expected { g_variant_type_free(expected) } }
        var error: UnsafeMutablePointer<GError>?
        let parsed = text.withCString { g_variant_parse(expected, $0, nil, nil, &error) }
        guard let parsed else {
            defer { if let error { g_error_free(error) } }
            // GLib's message starts with the place of the problem in the text, as byte offsets: `3-7:unknown keyword`.
            let message = error.map { String(cString: $0.pointee.message) } ?? "cannot parse"
            throw GVariantTextError(message)
        }
        defer { g_variant_unref(parsed) }
        return try value(of: parsed)
    }

    /// The D-Bus value of a GVariant; the GVariant is only borrowed.
    private static func value(of variant: OpaquePointer) throws(GVariantTextError) -> DBusValue {
        let signature = String(cString: g_variant_get_type_string(variant))
        switch signature.utf8.first {
        case UInt8(ascii: "b"): return .boolean(g_variant_get_boolean(variant) != 0)
        case UInt8(ascii: "y"): return .byte(g_variant_get_byte(variant))
        case UInt8(ascii: "n"): return .int16(g_variant_get_int16(variant))
        case UInt8(ascii: "q"): return .uint16(g_variant_get_uint16(variant))
        case UInt8(ascii: "i"): return .int32(g_variant_get_int32(variant))
        case UInt8(ascii: "u"): return .uint32(g_variant_get_uint32(variant))
        case UInt8(ascii: "x"): return .int64(Int64(g_variant_get_int64(variant)))
        case UInt8(ascii: "t"): return .uint64(UInt64(g_variant_get_uint64(variant)))
        case UInt8(ascii: "d"): return .double(g_variant_get_double(variant))
        case UInt8(ascii: "s"): return .string(String(cString: g_variant_get_string(variant, nil)))
        case UInt8(ascii: "o"):
            let text = String(cString: g_variant_get_string(variant, nil))
            do { return .objectPath(try DBusObjectPath(text)) } catch { throw GVariantTextError(error.message) }
        case UInt8(ascii: "g"):
            let text = String(cString: g_variant_get_string(variant, nil))
            do { return .signature(try DBusSignature(text)) } catch { throw GVariantTextError(error.message) }
        case UInt8(ascii: "v"):
            let inner = g_variant_get_variant(variant)!
            defer { g_variant_unref(inner) }
            return .variant(try value(of: inner))
        case UInt8(ascii: "a"):
            let element = String(signature.dropFirst())
            let children = try self.children(of: variant)
            if element.hasPrefix("{") {
                let key = DBusSignature(stringLiteral: String(element.dropFirst().prefix(1)))
                let valueType = DBusSignature(stringLiteral: String(element.dropFirst(2).dropLast()))
                var entries: [DBusDictionaryEntry] = []
                for child in children {
                    guard case .structure(let pair) = child, pair.count == 2 else {
                        throw GVariantTextError("a dictionary entry of '\(signature)' did not parse as a pair")
                    }
                    entries.append(DBusDictionaryEntry(key: pair[0], value: pair[1]))
                }
                return .dictionary(key: key, value: valueType, entries)
            }
            return .array(element: DBusSignature(stringLiteral: element), children)
        case UInt8(ascii: "("), UInt8(ascii: "{"):
            let fields = try children(of: variant)
            guard !fields.isEmpty else { throw GVariantTextError("D-Bus has no empty structure '()'") }
            return .structure(fields)
        case UInt8(ascii: "m"):
            throw GVariantTextError("'\(signature)' is a maybe type, which D-Bus cannot carry; give the value itself")
        case UInt8(ascii: "h"):
            throw GVariantTextError("'h' (a file descriptor handle) cannot be given as text")
        default:
            throw GVariantTextError("values of type '\(signature)' cannot be sent over D-Bus")
        }
    }

    private static func children(of variant: OpaquePointer) throws(GVariantTextError) -> [DBusValue] {
        var values: [DBusValue] = []
        let count = Int(g_variant_n_children(variant))
        values.reserveCapacity(count)
        for index in 0..<count {
            let child = g_variant_get_child_value(variant, gsize(index))!
            defer { g_variant_unref(child) }
            values.append(try value(of: child))
        }
        return values
    }
}

/// Text that is not a GVariant value of the expected type: GLib's message, which starts with the place of the problem.
public struct GVariantTextError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, in GLib's words where GLib found it.
    public var message: String

    /// Makes an error with a message.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
