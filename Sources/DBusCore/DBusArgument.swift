// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation
// The conformances below implement DBusArgument, whose requirements are documented once, on the protocol.

/// A Swift type that maps to one D-Bus complete type, known statically.
///
/// Because the signature belongs to the type, not to a value, an empty `[String]` still marshals as `as` and an
/// empty `[String: DBusVariant]` as `a{sv}`. Conversions go through ``DBusValue``.
public protocol DBusArgument: Sendable {
    /// The D-Bus signature of every value of this type.
    static var dbusSignature: DBusSignature { get }
    /// The value in dynamic form.
    var dbusValue: DBusValue { get }
    /// Reads a value from dynamic form.
    ///
    /// - Throws: `DBusFailure` (`InvalidArgs`) naming the expected and the actual type.
    init(dbusValue: DBusValue) throws(DBusFailure)
}

/// A ``DBusArgument`` of a basic type, which can be a dictionary key.
public protocol DBusBasicArgument: DBusArgument, Hashable {}

extension DBusFailure {
    static func typeMismatch(expected: DBusSignature, got value: DBusValue) -> DBusFailure {
        .invalidArgs("expected a value of type '\(expected)', got '\(value.signatureText)'")
    }
}

extension UInt8: DBusBasicArgument {
    public static var dbusSignature: DBusSignature { "y" }
    public var dbusValue: DBusValue { .byte(self) }
    public init(dbusValue: DBusValue) throws(DBusFailure) {
        guard case .byte(let value) = dbusValue else {
            throw .typeMismatch(expected: Self.dbusSignature, got: dbusValue)
        }
        self = value
    }
}

extension Bool: DBusBasicArgument {
    public static var dbusSignature: DBusSignature { "b" }
    public var dbusValue: DBusValue { .boolean(self) }
    public init(dbusValue: DBusValue) throws(DBusFailure) {
        guard case .boolean(let value) = dbusValue else {
            throw .typeMismatch(expected: Self.dbusSignature, got: dbusValue)
        }
        self = value
    }
}

extension Int16: DBusBasicArgument {
    public static var dbusSignature: DBusSignature { "n" }
    public var dbusValue: DBusValue { .int16(self) }
    public init(dbusValue: DBusValue) throws(DBusFailure) {
        guard case .int16(let value) = dbusValue else {
            throw .typeMismatch(expected: Self.dbusSignature, got: dbusValue)
        }
        self = value
    }
}

extension UInt16: DBusBasicArgument {
    public static var dbusSignature: DBusSignature { "q" }
    public var dbusValue: DBusValue { .uint16(self) }
    public init(dbusValue: DBusValue) throws(DBusFailure) {
        guard case .uint16(let value) = dbusValue else {
            throw .typeMismatch(expected: Self.dbusSignature, got: dbusValue)
        }
        self = value
    }
}

extension Int32: DBusBasicArgument {
    public static var dbusSignature: DBusSignature { "i" }
    public var dbusValue: DBusValue { .int32(self) }
    public init(dbusValue: DBusValue) throws(DBusFailure) {
        guard case .int32(let value) = dbusValue else {
            throw .typeMismatch(expected: Self.dbusSignature, got: dbusValue)
        }
        self = value
    }
}

extension UInt32: DBusBasicArgument {
    public static var dbusSignature: DBusSignature { "u" }
    public var dbusValue: DBusValue { .uint32(self) }
    public init(dbusValue: DBusValue) throws(DBusFailure) {
        guard case .uint32(let value) = dbusValue else {
            throw .typeMismatch(expected: Self.dbusSignature, got: dbusValue)
        }
        self = value
    }
}

extension Int64: DBusBasicArgument {
    public static var dbusSignature: DBusSignature { "x" }
    public var dbusValue: DBusValue { .int64(self) }
    public init(dbusValue: DBusValue) throws(DBusFailure) {
        guard case .int64(let value) = dbusValue else {
            throw .typeMismatch(expected: Self.dbusSignature, got: dbusValue)
        }
        self = value
    }
}

extension UInt64: DBusBasicArgument {
    public static var dbusSignature: DBusSignature { "t" }
    public var dbusValue: DBusValue { .uint64(self) }
    public init(dbusValue: DBusValue) throws(DBusFailure) {
        guard case .uint64(let value) = dbusValue else {
            throw .typeMismatch(expected: Self.dbusSignature, got: dbusValue)
        }
        self = value
    }
}

extension Double: DBusBasicArgument {
    public static var dbusSignature: DBusSignature { "d" }
    public var dbusValue: DBusValue { .double(self) }
    public init(dbusValue: DBusValue) throws(DBusFailure) {
        guard case .double(let value) = dbusValue else {
            throw .typeMismatch(expected: Self.dbusSignature, got: dbusValue)
        }
        self = value
    }
}

extension String: DBusBasicArgument {
    public static var dbusSignature: DBusSignature { "s" }
    public var dbusValue: DBusValue { .string(self) }
    public init(dbusValue: DBusValue) throws(DBusFailure) {
        guard case .string(let value) = dbusValue else {
            throw .typeMismatch(expected: Self.dbusSignature, got: dbusValue)
        }
        self = value
    }
}

extension DBusObjectPath: DBusBasicArgument {
    public static var dbusSignature: DBusSignature { "o" }
    public var dbusValue: DBusValue { .objectPath(self) }
    public init(dbusValue: DBusValue) throws(DBusFailure) {
        guard case .objectPath(let value) = dbusValue else {
            throw .typeMismatch(expected: Self.dbusSignature, got: dbusValue)
        }
        self = value
    }
}

extension DBusSignature: DBusBasicArgument {
    public static var dbusSignature: DBusSignature { "g" }
    public var dbusValue: DBusValue { .signature(self) }
    public init(dbusValue: DBusValue) throws(DBusFailure) {
        guard case .signature(let value) = dbusValue else {
            throw .typeMismatch(expected: Self.dbusSignature, got: dbusValue)
        }
        self = value
    }
}

extension DBusFileDescriptor: DBusBasicArgument {
    public static var dbusSignature: DBusSignature { "h" }
    public var dbusValue: DBusValue { .unixFD(self) }
    public convenience init(dbusValue: DBusValue) throws(DBusFailure) {
        guard case .unixFD(let value) = dbusValue else {
            throw .typeMismatch(expected: Self.dbusSignature, got: dbusValue)
        }
        // A class cannot assign `self`: the new value owns a duplicate, and either can be closed without the other.
        try self.init(duplicating: value.rawValue)
    }
}

extension Array: DBusArgument where Element: DBusArgument {
    public static var dbusSignature: DBusSignature { DBusSignature(unchecked: "a" + Element.dbusSignature.rawValue) }
    public var dbusValue: DBusValue { .array(element: Element.dbusSignature, map(\.dbusValue)) }
    public init(dbusValue: DBusValue) throws(DBusFailure) {
        guard case .array(let element, let values) = dbusValue, element == Element.dbusSignature else {
            throw .typeMismatch(expected: Self.dbusSignature, got: dbusValue)
        }
        var result: [Element] = []
        result.reserveCapacity(values.count)
        for value in values { result.append(try Element(dbusValue: value)) }
        self = result
    }
}

extension Dictionary: DBusArgument where Key: DBusBasicArgument, Value: DBusArgument {
    public static var dbusSignature: DBusSignature {
        DBusSignature(unchecked: "a{" + Key.dbusSignature.rawValue + Value.dbusSignature.rawValue + "}")
    }

    /// Entries go on the wire sorted by their key's text form, so the same dictionary always marshals the same way.
    public var dbusValue: DBusValue {
        let entries = map { DBusDictionaryEntry(key: $0.key.dbusValue, value: $0.value.dbusValue) }
            .sorted { $0.key.description < $1.key.description }
        return .dictionary(key: Key.dbusSignature, value: Value.dbusSignature, entries)
    }

    public init(dbusValue: DBusValue) throws(DBusFailure) {
        guard case .dictionary(let key, let value, let entries) = dbusValue,
            key == Key.dbusSignature, value == Value.dbusSignature
        else {
            throw .typeMismatch(expected: Self.dbusSignature, got: dbusValue)
        }
        var result: [Key: Value] = [:]
        for entry in entries {
            result[try Key(dbusValue: entry.key)] = try Value(dbusValue: entry.value)
        }
        self = result
    }
}

/// A variant (`v`): any value, carried with its own type.
public struct DBusVariant: DBusArgument, Hashable, CustomStringConvertible {
    /// The value inside.
    public var value: DBusValue

    /// Wraps a dynamic value.
    public init(_ value: DBusValue) {
        self.value = value
    }

    /// Wraps a typed value.
    public init(_ value: some DBusArgument) {
        self.value = value.dbusValue
    }

    public static var dbusSignature: DBusSignature { "v" }
    public var dbusValue: DBusValue { .variant(value) }
    public init(dbusValue: DBusValue) throws(DBusFailure) {
        guard case .variant(let inner) = dbusValue else {
            throw .typeMismatch(expected: Self.dbusSignature, got: dbusValue)
        }
        self.value = inner
    }

    /// Reads the value inside as a typed value.
    ///
    /// - Throws: `DBusFailure` (`InvalidArgs`) when the variant holds another type.
    public func get<T: DBusArgument>(_ type: T.Type = T.self) throws(DBusFailure) -> T {
        try T(dbusValue: value)
    }

    public var description: String { dbusValue.description }
}

/// A structure (`(…)`) of typed fields.
public struct DBusStruct<each Field: DBusArgument>: DBusArgument {
    /// The fields, in order.
    public var fields: (repeat each Field)

    /// Makes a structure from its fields.
    public init(_ fields: repeat each Field) {
        self.fields = (repeat each fields)
    }

    public static var dbusSignature: DBusSignature {
        var text = "("
        for type in repeat (each Field).self {
            text += type.dbusSignature.rawValue
        }
        return DBusSignature(unchecked: text + ")")
    }

    public var dbusValue: DBusValue {
        var values: [DBusValue] = []
        for field in repeat each fields {
            values.append(field.dbusValue)
        }
        return .structure(values)
    }

    public init(dbusValue: DBusValue) throws(DBusFailure) {
        guard case .structure(let values) = dbusValue, dbusValue.signature == Self.dbusSignature else {
            throw .typeMismatch(expected: Self.dbusSignature, got: dbusValue)
        }
        var reader = DBusValueReader(values)
        self.fields = (repeat try reader.next((each Field).self))
    }
}

/// Reads typed values one after the other from a list of dynamic values.
public struct DBusValueReader {
    private let values: [DBusValue]
    private var index = 0

    /// Reads from `values`, starting at the first.
    public init(_ values: [DBusValue]) {
        self.values = values
    }

    /// Reads the next value as `type`.
    ///
    /// - Throws: `DBusFailure` (`InvalidArgs`) when there is no next value or it has another type.
    public mutating func next<T: DBusArgument>(_ type: T.Type = T.self) throws(DBusFailure) -> T {
        guard index < values.count else {
            throw .invalidArgs(
                "expected a value of type '\(T.dbusSignature)' at position \(index), but there are only "
                    + "\(values.count)")
        }
        defer { index += 1 }
        return try T(dbusValue: values[index])
    }

    /// Whether every value has been read.
    public var isAtEnd: Bool { index == values.count }
}

extension Array where Element == DBusValue {
    /// Reads all values as the given types, in order: `let (name, id) = try reply.decode(String.self, UInt32.self)`.
    ///
    /// - Throws: `DBusFailure` (`InvalidArgs`) naming the expected signature when the count or a type differs.
    public func decode<each T: DBusArgument>(_ types: repeat (each T).Type) throws(DBusFailure) -> (repeat each T) {
        var expected = ""
        for type in repeat each types { expected += type.dbusSignature.rawValue }
        let actual = map(\.signatureText).joined()
        guard expected == actual else {
            throw .invalidArgs("expected values of signature '\(expected)', got '\(actual)'")
        }
        var reader = DBusValueReader(self)
        return (repeat try reader.next(each types))
    }
}
