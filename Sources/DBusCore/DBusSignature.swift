/// A D-Bus type signature such as `s`, `a{sv}` or `(iiibiiay)`, checked when it is made.
///
/// A signature is a sequence of complete types. `DBusSignature` validates the grammar and the nesting limits of the
/// D-Bus specification (32 levels of arrays, 32 of structures), so any signature value can be put on the wire.
public struct DBusSignature: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The signature text, for example `a{sv}`.
    public let rawValue: String

    /// Makes a signature, throwing when the text is not a valid D-Bus signature.
    ///
    /// - Throws: `DBusFailure.invalidSignature` naming the offending position.
    public init(_ text: String) throws(DBusFailure) {
        try Self.validate(text)
        self.rawValue = text
    }

    /// Makes a signature from a literal; a literal that is not a valid signature is a programming error and traps.
    public init(stringLiteral value: String) {
        do {
            try Self.validate(value)
        } catch {
            preconditionFailure("invalid D-Bus signature literal '\(value)': \(error.message)")
        }
        self.rawValue = value
    }

    init(unchecked text: String) {
        self.rawValue = text
    }

    /// The signature as text.
    public var description: String { rawValue }

    /// The empty signature: no values.
    public static let empty = DBusSignature(unchecked: "")

    /// Whether the signature holds exactly one complete type.
    public var isSingleCompleteType: Bool {
        // One byte, as most element types are: a basic type or a variant, with nothing to parse.
        if rawValue.utf8.count == 1, let code = rawValue.utf8.first {
            return Self.isBasic(code) || code == UInt8(ascii: "v")
        }
        let utf8 = Array(rawValue.utf8)
        guard !utf8.isEmpty, let end = try? Self.endOfCompleteType(utf8, from: 0, arrays: 0, structs: 0) else {
            return false
        }
        return end == utf8.count
    }

    /// The complete types this signature is made of, in order: `sa{sv}u` gives `s`, `a{sv}` and `u`.
    public var completeTypes: [DBusSignature] {
        let utf8 = Array(rawValue.utf8)
        var result: [DBusSignature] = []
        var index = 0
        while index < utf8.count {
            // The signature was validated when it was made, so every step succeeds.
            guard let end = try? Self.endOfCompleteType(utf8, from: index, arrays: 0, structs: 0) else { break }
            result.append(DBusSignature(unchecked: String(decoding: utf8[index..<end], as: UTF8.self)))
            index = end
        }
        return result
    }

    /// The longest signature the specification allows, in bytes.
    public static let maximumLength = 255

    static func validate(_ text: String) throws(DBusFailure) {
        let utf8 = Array(text.utf8)
        guard utf8.count <= maximumLength else {
            throw .invalidSignature("signature is \(utf8.count) bytes long; at most \(maximumLength) are allowed")
        }
        var index = 0
        while index < utf8.count {
            index = try endOfCompleteType(utf8, from: index, arrays: 0, structs: 0)
        }
    }

    /// Whether `code` is the type code of a basic (non-container) type.
    static func isBasic(_ code: UInt8) -> Bool {
        switch code {
        case UInt8(ascii: "y"), UInt8(ascii: "b"), UInt8(ascii: "n"), UInt8(ascii: "q"), UInt8(ascii: "i"),
            UInt8(ascii: "u"), UInt8(ascii: "x"), UInt8(ascii: "t"), UInt8(ascii: "d"), UInt8(ascii: "s"),
            UInt8(ascii: "o"), UInt8(ascii: "g"), UInt8(ascii: "h"):
            true
        default: false
        }
    }

    private static func endOfCompleteType(
        _ utf8: [UInt8], from start: Int, arrays: Int, structs: Int
    ) throws(DBusFailure) -> Int {
        guard start < utf8.count else {
            throw .invalidSignature("signature ends where a type was expected")
        }
        let code = utf8[start]
        switch code {
        case _ where isBasic(code), UInt8(ascii: "v"):
            return start + 1
        case UInt8(ascii: "a"):
            guard arrays < 32 else { throw .invalidSignature("arrays nest deeper than 32 levels") }
            if start + 1 < utf8.count, utf8[start + 1] == UInt8(ascii: "{") {
                var index = start + 2
                guard index < utf8.count, isBasic(utf8[index]) else {
                    throw .invalidSignature("a dictionary key must be a basic type (at byte \(index))")
                }
                index += 1
                index = try endOfCompleteType(utf8, from: index, arrays: arrays + 1, structs: structs)
                guard index < utf8.count, utf8[index] == UInt8(ascii: "}") else {
                    throw .invalidSignature("a dictionary entry holds exactly a key and a value (at byte \(index))")
                }
                return index + 1
            }
            return try endOfCompleteType(utf8, from: start + 1, arrays: arrays + 1, structs: structs)
        case UInt8(ascii: "("):
            guard structs < 32 else { throw .invalidSignature("structures nest deeper than 32 levels") }
            var index = start + 1
            guard index < utf8.count, utf8[index] != UInt8(ascii: ")") else {
                throw .invalidSignature("a structure needs at least one field (at byte \(start))")
            }
            while index < utf8.count, utf8[index] != UInt8(ascii: ")") {
                index = try endOfCompleteType(utf8, from: index, arrays: arrays, structs: structs + 1)
            }
            guard index < utf8.count else { throw .invalidSignature("structure opened at byte \(start) is not closed") }
            return index + 1
        default:
            let shown = String(decoding: [code], as: UTF8.self)
            throw .invalidSignature("'\(shown)' at byte \(start) is not a D-Bus type code")
        }
    }
}
