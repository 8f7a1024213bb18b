import DBusCore
import NotificationBridgeAPI
import NotificationModel

/// Turning the daemon's replies into lines and JSON.
enum Output {
    /// A D-Bus value as JSON: variants unwrapped, dictionaries as objects, structures as arrays; the `user-info` key
    /// (JSON text on the bus) as the JSON it holds.
    static func json(_ value: DBusValue) -> JSONValue {
        switch value.unwrappedVariant {
        case .boolean(let flag): return .bool(flag)
        case .byte(let number): return .number(Double(number))
        case .int16(let number): return .number(Double(number))
        case .uint16(let number): return .number(Double(number))
        case .int32(let number): return .number(Double(number))
        case .uint32(let number): return .number(Double(number))
        case .int64(let number): return .number(Double(number))
        case .uint64(let number): return .number(Double(number))
        case .double(let number): return number.isFinite ? .number(number) : .null
        case .string(let text): return .string(text)
        case .objectPath(let path): return .string(path.rawValue)
        case .signature(let signature): return .string(signature.rawValue)
        case .array(_, let values): return .array(values.map(json))
        case .structure(let values): return .array(values.map(json))
        case .dictionary(_, _, let entries):
            var members: [String: JSONValue] = [:]
            for entry in entries {
                let key = entry.key.stringValue ?? entry.key.description
                if key == ResponseKeys.userInfo.name, let text = entry.value.unwrappedVariant.stringValue,
                    let parsed = try? JSONValue(parsing: text)
                {
                    members[key] = parsed
                } else {
                    members[key] = json(entry.value)
                }
            }
            return .object(members)
        case .variant(let inner): return json(inner)
        // A descriptor number means nothing outside this process.
        case .unixFD: return .null
        }
    }

    /// A value for a human: strings as they are, anything else in GVariant text form.
    static func text(_ value: DBusValue) -> String {
        let value = value.unwrappedVariant
        if case .array(let element, let values) = value, element == "s" {
            return values.compactMap(\.stringValue).joined(separator: ", ")
        }
        return value.stringValue ?? value.description
    }

    /// Prints a JSON value on one line.
    static func printJSON(_ value: JSONValue) {
        print(value.jsonText)
    }

    /// `key: value` lines of a dictionary, sorted by key.
    static func printDictionary(_ value: DBusValue, indent: String = "") {
        let entries = value.stringKeyedEntries ?? [:]
        for key in entries.keys.sorted() {
            print("\(indent)\(key): \(text(entries[key]!))")
        }
    }
}
