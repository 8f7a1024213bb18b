/// Any value D-Bus can carry, with its type: the dynamic counterpart of the typed ``DBusArgument`` values.
///
/// Containers carry their element types, so an empty array or dictionary still has a full signature (an empty `as`
/// is `as`, not `ay`). Printing a value gives GVariant text form, the notation `gdbus call` reads and prints.
public indirect enum DBusValue: Sendable, Hashable {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(DBusObjectPath)
    case signature(DBusSignature)
    /// An array whose elements all have the single complete type `element`.
    case array(element: DBusSignature, [DBusValue])
    /// A dictionary (`a{kv}`): entries in wire order, keys of the basic type `key`, values of type `value`.
    case dictionary(key: DBusSignature, value: DBusSignature, [DBusDictionaryEntry])
    /// A structure: one or more fields.
    case structure([DBusValue])
    /// A variant: a value together with its own type.
    case variant(DBusValue)
    /// A unix file descriptor (`h`), owned by the value; only a connection that can pass descriptors sends one
    /// (``DBusConnection/canPassFileDescriptors``).
    case unixFD(DBusFileDescriptor)

    /// The value's D-Bus type as a signature of one complete type.
    public var signature: DBusSignature {
        DBusSignature(unchecked: signatureText)
    }

    var signatureText: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .array(let element, _): "a" + element.rawValue
        case .dictionary(let key, let value, _): "a{" + key.rawValue + value.rawValue + "}"
        case .structure(let fields): "(" + fields.map(\.signatureText).joined() + ")"
        case .variant: "v"
        case .unixFD: "h"
        }
    }

    /// Whether the value is, or holds anywhere inside it, a unix file descriptor.
    public var containsFileDescriptor: Bool {
        switch self {
        case .unixFD: true
        case .variant(let inner): inner.containsFileDescriptor
        case .array(_, let values): values.contains(where: \.containsFileDescriptor)
        case .structure(let fields): fields.contains(where: \.containsFileDescriptor)
        case .dictionary(_, _, let entries):
            entries.contains { $0.key.containsFileDescriptor || $0.value.containsFileDescriptor }
        default: false
        }
    }

    /// The string inside a `.string`, `.objectPath` or `.signature` value, or `nil`.
    public var stringValue: String? {
        switch self {
        case .string(let text): text
        case .objectPath(let path): path.rawValue
        case .signature(let signature): signature.rawValue
        default: nil
        }
    }

    /// The value inside a variant, or `self` when it is not a variant.
    public var unwrappedVariant: DBusValue {
        if case .variant(let inner) = self { return inner.unwrappedVariant }
        return self
    }

    /// The entries of a dictionary value keyed by their string keys (later duplicates win), or `nil` when this is not
    /// a dictionary with string keys.
    public var stringKeyedEntries: [String: DBusValue]? {
        guard case .dictionary(_, _, let entries) = self else { return nil }
        var result: [String: DBusValue] = [:]
        for entry in entries {
            guard case .string(let key) = entry.key else { return nil }
            result[key] = entry.value
        }
        return result
    }

    /// An `a{sv}` dictionary from Swift string keys, in key order so the wire form is stable.
    public static func vardict(_ entries: [String: DBusValue]) -> DBusValue {
        .dictionary(
            key: "s", value: "v",
            entries.sorted { $0.key < $1.key }.map {
                DBusDictionaryEntry(key: .string($0.key), value: .variant($0.value))
            }
        )
    }

    /// An array of strings (`as`).
    public static func strings(_ values: [String]) -> DBusValue {
        .array(element: "s", values.map(DBusValue.string))
    }
}

/// One entry of a D-Bus dictionary.
public struct DBusDictionaryEntry: Sendable, Hashable {
    /// The key: a basic value.
    public var key: DBusValue
    /// The value.
    public var value: DBusValue

    /// Makes an entry.
    public init(key: DBusValue, value: DBusValue) {
        self.key = key
        self.value = value
    }
}

extension DBusValue {
    /// Checks that this value can go on the wire as it says: container elements match the declared types, strings
    /// hold no NUL, containers nest no deeper than the specification allows.
    ///
    /// - Throws: `DBusFailure` with `InvalidArgs` saying which part is wrong.
    public func validate() throws(DBusFailure) {
        try validate(depth: 0)
        if isContainer { try checkSignature() }
    }

    /// Whether this is an array, a dictionary or a structure: the values whose signature can break a limit (a basic
    /// value's or a variant's is one valid byte).
    private var isContainer: Bool {
        switch self {
        case .array, .dictionary, .structure: true
        default: false
        }
    }

    /// The length of ``signatureText``, counted without writing it.
    var signatureLength: Int {
        switch self {
        case .array(let element, _): 1 + element.rawValue.utf8.count
        case .dictionary(let key, let value, _): 3 + key.rawValue.utf8.count + value.rawValue.utf8.count
        case .structure(let fields): fields.reduce(2) { $0 + $1.signatureLength }
        default: 1
        }
    }

    /// libdbus does not check the nesting and length limits of what it appends, so a value breaking them would make
    /// a message the bus rejects: check them here.
    private func checkSignature() throws(DBusFailure) {
        do {
            try DBusSignature.validate(signatureText)
        } catch {
            throw .invalidArgs("a value of type '\(signatureText)' cannot be sent: \(error.message)")
        }
    }

    private func validate(depth: Int) throws(DBusFailure) {
        guard depth <= 64 else { throw .invalidArgs("values nest deeper than 64 containers") }
        switch self {
        case .string(let text):
            guard !text.containsNUL else {
                throw .invalidArgs("a D-Bus string cannot contain a NUL character; remove it")
            }
        case .array(let element, let values):
            guard element.isSingleCompleteType else {
                throw .invalidArgs("array element type '\(element)' is not a single complete type")
            }
            for value in values {
                try value.checkType(element, in: "array")
                try value.validate(depth: depth + 1)
            }
        case .dictionary(let key, let value, let entries):
            guard key.rawValue.utf8.count == 1, let code = key.rawValue.utf8.first, DBusSignature.isBasic(code) else {
                throw .invalidArgs("dictionary key type '\(key)' is not a basic type")
            }
            guard value.isSingleCompleteType else {
                throw .invalidArgs("dictionary value type '\(value)' is not a single complete type")
            }
            for entry in entries {
                try entry.key.checkType(key, in: "dictionary key")
                try entry.value.checkType(value, in: "dictionary value")
                try entry.key.validate(depth: depth + 1)
                try entry.value.validate(depth: depth + 1)
            }
        case .structure(let fields):
            guard !fields.isEmpty else { throw .invalidArgs("a structure needs at least one field") }
            for field in fields { try field.validate(depth: depth + 1) }
        case .variant(let inner):
            try inner.validate(depth: depth + 1)
            if inner.isContainer { try inner.checkSignature() }
        default:
            break
        }
    }

    private func checkType(_ expected: DBusSignature, in place: String) throws(DBusFailure) {
        let actual = signatureText
        guard actual == expected.rawValue else {
            throw .invalidArgs("\(place) holds a value of type '\(actual)' where type '\(expected)' was declared")
        }
    }
}

extension [DBusValue] {
    /// Checks that the values can go on the wire together as one message body: each is valid, and their signature
    /// together fits in the 255 bytes the specification allows.
    ///
    /// - Throws: `DBusFailure` with `InvalidArgs` saying which part is wrong.
    func validateMessageBody() throws(DBusFailure) {
        for value in self { try value.validate() }
        let length = reduce(0) { $0 + $1.signatureLength }
        guard length <= DBusSignature.maximumLength else {
            throw .invalidArgs(
                "the arguments' signature is \(length) bytes long; at most "
                    + "\(DBusSignature.maximumLength) are allowed: send fewer values, or group them in an array")
        }
    }
}

extension String {
    /// Whether the text holds a NUL byte, which no D-Bus string may: one pass over its bytes in place, where
    /// `utf8.contains(0)` steps through an iterator byte by byte.
    var containsNUL: Bool {
        utf8.withContiguousStorageIfAvailable { bytes in bytes.contains(0) } ?? utf8.contains(0)
    }
}
