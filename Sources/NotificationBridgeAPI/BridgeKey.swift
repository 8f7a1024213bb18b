import DBusCore

/// One key of a dictionary (`a{sv}`) of `io.github.NotificationBridge1`: its name, the D-Bus types it takes, what it
/// means, and how its value is read and written.
///
/// The same description decodes (in the daemon) and encodes (in every client), so the two cannot disagree:
///
/// ```swift
/// var entries = WireEntries()
/// entries[PostKeys.title] = "Backup finished"
/// let title = try VariantDictionary(entries.value, place: "notification", keys: PostKeys.all).decode(PostKeys.title)
/// ```
///
/// The tables of keys are ``PostKeys``, ``CalendarKeys``, ``ActionKeys``, ``CategoryOptionKeys``, ``ResponseKeys``,
/// ``ListedKeys``, ``FilterKeys`` and ``AttachOptionKeys``.
public struct BridgeKey<Value: Sendable>: Sendable {
    /// What the key says, without its value type: the part the tables list.
    public let info: BridgeKeyInfo
    let read: @Sendable (DBusValue, KeyPlace) throws(DBusFailure) -> Value
    let write: @Sendable (Value) -> DBusValue

    /// The key as written in the dictionary, e.g. `app-name`.
    public var name: String { info.name }

    /// Describes a key.
    ///
    /// - Parameters:
    ///   - name: the key.
    ///   - types: the D-Bus types the value may have (inside its variant); the first is the one ``encode(_:)`` writes.
    ///   - summary: one line for documentation.
    ///   - decode: reads a value (variant removed), throwing `InvalidArgument` through `place` for a wrong type or a
    ///     wrong value.
    ///   - encode: writes a value.
    public init(
        _ name: String, types: [String], summary: String,
        decode: @escaping @Sendable (DBusValue, KeyPlace) throws(DBusFailure) -> Value,
        encode: @escaping @Sendable (Value) -> DBusValue
    ) {
        info = BridgeKeyInfo(name: name, types: types, summary: summary)
        read = decode
        write = encode
    }

    /// Reads a value found under this key at `place` (`notification`, `actions[2]`, `filter`).
    public func decode(_ value: DBusValue, place: String) throws(DBusFailure) -> Value {
        try read(value.unwrappedVariant, KeyPlace(place: place, key: name))
    }

    /// The value as it goes in the dictionary (without the variant around it).
    public func encode(_ value: Value) -> DBusValue { write(value) }
}

/// A key of one of the interface's dictionaries, without its value type: for documentation, and for checks that
/// every key is documented.
public struct BridgeKeyInfo: Sendable, Hashable {
    /// The key, e.g. `app-name`.
    public var name: String
    /// The D-Bus types its value may have, e.g. `["s", "y"]`.
    public var types: [String]
    /// One line saying what it means.
    public var summary: String
}

/// Where a key's value was found: what its errors name.
public struct KeyPlace: Sendable {
    /// The dictionary: `notification`, `actions[0]`, `options`, `filter`.
    public var place: String
    /// The key.
    public var key: String

    /// The key `key` of the dictionary `place`.
    public init(place: String, key: String) {
        self.place = place
        self.key = key
    }

    /// An `InvalidArgument` for a value of the wrong type: the type that came, the type expected, and an example in
    /// `gdbus` notation.
    public func wrongType(_ value: DBusValue, expected: String, example: String) -> DBusFailure {
        let actual = value.signature.rawValue
        return invalid(
            "holds \(article(typeName(actual))) ('\(actual)'); expected \(article(typeName(expected))) "
                + "('\(expected)'), e.g. '\(key)': \(example)")
    }

    /// An `InvalidArgument` about the key's value, "`place` key '`key`' `problem`", with its parts
    /// (``KeyFailure``).
    public func invalid(_ problem: String) -> DBusFailure {
        KeyFailure(place: place, key: key, problem: problem).failure
    }
}

/// A reader's name for a D-Bus type.
package func typeName(_ signature: String) -> String {
    switch signature {
    case "y": "byte"
    case "b": "boolean"
    case "n": "int16"
    case "q": "uint16"
    case "i": "int32"
    case "u": "uint32"
    case "x": "int64"
    case "t": "uint64"
    case "d": "double"
    case "s": "string"
    case "o": "object path"
    case "g": "signature"
    case "v": "variant"
    case "as": "array of strings"
    case "a{sv}": "dictionary of variants"
    case "aa{sv}": "array of dictionaries"
    default:
        if signature.hasPrefix("a{") {
            "dictionary"
        } else if signature.hasPrefix("a") {
            "array"
        } else if signature.hasPrefix("(") {
            "tuple"
        } else {
            "value"
        }
    }
}

private func article(_ name: String) -> String {
    guard let first = name.first else { return name }
    return ("aeiou".contains(first) ? "an " : "a ") + name
}
