import DBusCore

/// Reads an `a{sv}` argument key by key, checking each value's type and refusing keys nobody reads.
///
/// Every error is an `InvalidArgument` naming the place (`notification`, `actions[2]`, `filter`), the key, the type
/// that came and the type expected, with an example in `gdbus` notation.
struct VariantDictionary {
    /// Where the dictionary sits, for messages: `notification`, `actions[0]`, `options`, `filter`.
    let place: String
    private let values: [String: DBusValue]

    /// Takes the entries of an `a{sv}` value.
    ///
    /// - Parameter known: the keys this place accepts; any other key is refused, with a suggestion when it looks like
    ///   a misspelling of one of them.
    /// - Throws: `InvalidArgument` for a value that is not `a{sv}`, a key given twice or an unknown key.
    init(_ value: DBusValue, place: String, known: [String]) throws(DBusFailure) {
        guard case .dictionary(let key, let value, let entries) = value, key == "s", value == "v" else {
            throw BridgeError.invalid(
                "\(place) is of type '\(valueSignature(value))' (\(typeName(valueSignature(value)))); expected a "
                    + "dictionary of variants ('a{sv}'), e.g. {'title': <'Hello'>}")
        }
        var values: [String: DBusValue] = [:]
        for entry in entries {
            guard case .string(let name) = entry.key else { continue }
            guard values.updateValue(entry.value.unwrappedVariant, forKey: name) == nil else {
                throw BridgeError.invalid("\(place) has key \(quotedForMessage(name)) twice; give each key once")
            }
            guard known.contains(name) else {
                throw BridgeError.invalid(Self.unknownKeyMessage(name, place: place, known: known))
            }
        }
        self.place = place
        self.values = values
    }

    static func unknownKeyMessage(_ name: String, place: String, known: [String]) -> String {
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

    /// Whether the key is present.
    func contains(_ key: String) -> Bool { values[key] != nil }

    /// The raw value of a key, variant removed.
    func value(_ key: String) -> DBusValue? { values[key] }

    /// The keys present.
    var keys: Dictionary<String, DBusValue>.Keys { values.keys }

    func string(_ key: String, example: String = "<'text'>") throws(DBusFailure) -> String? {
        guard let value = values[key] else { return nil }
        guard case .string(let text) = value else { throw wrongType(key, value, expected: "s", example: example) }
        return text
    }

    func boolean(_ key: String) throws(DBusFailure) -> Bool? {
        guard let value = values[key] else { return nil }
        guard case .boolean(let flag) = value else {
            throw wrongType(key, value, expected: "b", example: "<true>")
        }
        return flag
    }

    func int32(_ key: String, example: String) throws(DBusFailure) -> Int32? {
        guard let value = values[key] else { return nil }
        guard case .int32(let number) = value else { throw wrongType(key, value, expected: "i", example: example) }
        return number
    }

    func strings(_ key: String, example: String) throws(DBusFailure) -> [String]? {
        guard let value = values[key] else { return nil }
        guard case .array(let element, let items) = value, element == "s" else {
            throw wrongType(key, value, expected: "as", example: example)
        }
        return items.compactMap(\.stringValue)
    }

    /// An `aa{sv}` value: the dictionaries, each still to be read.
    func dictionaries(_ key: String, example: String) throws(DBusFailure) -> [DBusValue]? {
        guard let value = values[key] else { return nil }
        guard case .array(let element, let items) = value, element == "a{sv}" else {
            throw wrongType(key, value, expected: "aa{sv}", example: example)
        }
        return items
    }

    /// A string that must be one of `choices`.
    func choice(_ key: String, _ choices: [String]) throws(DBusFailure) -> String? {
        let example = "<'\(choices[0])'>"
        guard let text = try string(key, example: example) else { return nil }
        guard choices.contains(text) else {
            throw BridgeError.invalid(
                "\(place) key '\(key)' is \(quotedForMessage(text)); use one of "
                    + choices.map { "'\($0)'" }.joined(separator: ", "))
        }
        return text
    }

    /// The error for a value of the wrong type.
    func wrongType(_ key: String, _ value: DBusValue, expected: String, example: String) -> DBusFailure {
        let actual = valueSignature(value)
        return BridgeError.invalid(
            "\(place) key '\(key)' holds \(article(typeName(actual))) ('\(actual)'); expected "
                + "\(article(typeName(expected))) ('\(expected)'), e.g. '\(key)': \(example)")
    }

    /// An error about the value of one key.
    func invalid(_ key: String, _ problem: String) -> DBusFailure {
        BridgeError.invalid("\(place) key '\(key)' \(problem)")
    }
}

private func valueSignature(_ value: DBusValue) -> String { value.signature.rawValue }

/// A reader's name for a D-Bus type.
func typeName(_ signature: String) -> String {
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
        if signature.hasPrefix("a{") { "dictionary" }
        else if signature.hasPrefix("a") { "array" }
        else if signature.hasPrefix("(") { "tuple" }
        else { "value" }
    }
}

private func article(_ name: String) -> String {
    guard let first = name.first else { return name }
    return ("aeiou".contains(first) ? "an " : "a ") + name
}

/// The Levenshtein distance, for "did you mean" hints; inputs are short key names (longer ones are not compared).
func editDistance(_ a: String, _ b: String) -> Int {
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
