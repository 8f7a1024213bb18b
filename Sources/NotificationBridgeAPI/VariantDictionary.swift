import DBusCore

/// Reads an `a{sv}` argument key by key, checking each value's type and refusing keys nobody reads.
///
/// Every error is an `InvalidArgument` naming the place (`notification`, `actions[2]`, `filter`), the key, the type
/// that came and the type expected, with an example in `gdbus` notation.
package struct VariantDictionary {
    /// Where the dictionary sits, for messages: `notification`, `actions[0]`, `options`, `filter`.
    package let place: String
    private let values: [String: DBusValue]

    /// Takes the entries of an `a{sv}` value, accepting the keys of a table.
    ///
    /// - Throws: `InvalidArgument` for a value that is not `a{sv}`, a key given twice or a key not in `keys`.
    package init(_ value: DBusValue, place: String, keys: [BridgeKeyInfo]) throws(DBusFailure) {
        // Looked up in the table itself: no list of names is made unless a key is unknown.
        try self.init(value, place: place, isKnown: { name in keys.contains { $0.name == name } }) {
            keys.map(\.name)
        }
    }

    /// Takes the entries of an `a{sv}` value.
    ///
    /// - Parameter known: the keys this place accepts; any other key is refused, with a suggestion when it looks like
    ///   a misspelling of one of them.
    /// - Throws: `InvalidArgument` for a value that is not `a{sv}`, a key given twice or an unknown key.
    package init(_ value: DBusValue, place: String, known: [String]) throws(DBusFailure) {
        try self.init(value, place: place, isKnown: known.contains) { known }
    }

    private init(
        _ value: DBusValue, place: String, isKnown: (String) -> Bool, known: () -> [String]
    ) throws(DBusFailure) {
        guard case .dictionary(let key, let value, let entries) = value, key == "s", value == "v" else {
            let actual = value.signature.rawValue
            throw BridgeError.invalid(
                "\(place) is of type '\(actual)' (\(typeName(actual))); expected a dictionary of variants ('a{sv}'), "
                    + "e.g. {'title': <'Hello'>}")
        }
        var values: [String: DBusValue] = [:]
        for entry in entries {
            guard case .string(let name) = entry.key else { continue }
            guard values.updateValue(entry.value.unwrappedVariant, forKey: name) == nil else {
                throw BridgeError.invalid("\(place) has key \(quotedForMessage(name)) twice; give each key once")
            }
            guard isKnown(name) else {
                throw BridgeError.invalid(Self.unknownKeyMessage(name, place: place, known: known()))
            }
        }
        self.place = place
        self.values = values
    }

    package static func unknownKeyMessage(_ name: String, place: String, known: [String]) -> String {
        var message = "\(place) has unknown key \(quotedForMessage(name))"
        if let guess = likelyMeant(name, among: known) { message += " (did you mean '\(guess)'?)" }
        return message + "; known keys: " + known.joined(separator: ", ")
    }

    /// The known key `name` is probably a misspelling or a shortening of, if any.
    private static func likelyMeant(_ name: String, among known: [String]) -> String? {
        if name.count >= 3, let extended = known.first(where: { $0.hasPrefix(name) }) { return extended }
        guard let closest = known.min(by: { editDistance($0, name) < editDistance($1, name) }),
            editDistance(closest, name) <= 2
        else { return nil }
        return closest
    }

    /// The value of `key`, read as the key says; `nil` when it is absent.
    package func decode<Value>(_ key: BridgeKey<Value>) throws(DBusFailure) -> Value? {
        guard let value = values[key.name] else { return nil }
        return try key.read(value, KeyPlace(place: place, key: key.name))
    }

    /// Whether the key is present.
    package func contains(_ key: String) -> Bool { values[key] != nil }

    /// Whether the key is present.
    package func contains<Value>(_ key: BridgeKey<Value>) -> Bool { values[key.name] != nil }

    /// The raw value of a key, variant removed.
    package func value(_ key: String) -> DBusValue? { values[key] }

    /// The raw value of a key, variant removed.
    package func value<Value>(_ key: BridgeKey<Value>) -> DBusValue? { values[key.name] }

    /// The keys present.
    package var keys: Dictionary<String, DBusValue>.Keys { values.keys }

    /// Every entry, values without their variants.
    package var entries: [String: DBusValue] { values }

    /// A boolean key read by name (for dictionaries whose keys have no table here).
    package func boolean(_ key: String) throws(DBusFailure) -> Bool? {
        guard let value = values[key] else { return nil }
        guard case .boolean(let flag) = value else {
            throw wrongType(key, value, expected: "b", example: "<true>")
        }
        return flag
    }

    /// The error for a value of the wrong type.
    package func wrongType(_ key: String, _ value: DBusValue, expected: String, example: String) -> DBusFailure {
        KeyPlace(place: place, key: key).wrongType(value, expected: expected, example: example)
    }

    /// An error about the value of one key.
    package func invalid(_ key: String, _ problem: String) -> DBusFailure {
        KeyPlace(place: place, key: key).invalid(problem)
    }

    /// An error about the value of one key.
    package func invalid<Value>(_ key: BridgeKey<Value>, _ problem: String) -> DBusFailure {
        invalid(key.name, problem)
    }
}

/// The Levenshtein distance, for "did you mean" hints; inputs are short key names (longer ones are not compared).
package func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.utf8.prefix(64))
    let b = Array(b.utf8.prefix(64))
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = previous
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}
