import DBusCore

/// The common kinds of keys: one D-Bus type each, read strictly.
extension BridgeKey {
    /// A string (`s`).
    public static func string(_ name: String, example: String, summary: String) -> BridgeKey<String>
    where Value == String {
        BridgeKey<String>(
            name, types: ["s"], summary: summary,
            decode: { value, place throws(DBusFailure) in
                guard case .string(let text) = value else {
                    throw place.wrongType(value, expected: "s", example: example)
                }
                return text
            },
            encode: { .string($0) })
    }

    /// A boolean (`b`).
    public static func boolean(_ name: String, summary: String) -> BridgeKey<Bool> where Value == Bool {
        BridgeKey<Bool>(
            name, types: ["b"], summary: summary,
            decode: { value, place throws(DBusFailure) in
                guard case .boolean(let flag) = value else {
                    throw place.wrongType(value, expected: "b", example: "<true>")
                }
                return flag
            },
            encode: { .boolean($0) })
    }

    /// A 32-bit integer (`i`).
    public static func int32(_ name: String, example: String, summary: String) -> BridgeKey<Int32>
    where Value == Int32 {
        BridgeKey<Int32>(
            name, types: ["i"], summary: summary,
            decode: { value, place throws(DBusFailure) in
                guard case .int32(let number) = value else {
                    throw place.wrongType(value, expected: "i", example: example)
                }
                return number
            },
            encode: { .int32($0) })
    }

    /// An array of strings (`as`).
    public static func strings(_ name: String, example: String, summary: String) -> BridgeKey<[String]>
    where Value == [String] {
        BridgeKey<[String]>(
            name, types: ["as"], summary: summary,
            decode: { value, place throws(DBusFailure) in
                guard case .array(let element, let items) = value, element == "s" else {
                    throw place.wrongType(value, expected: "as", example: example)
                }
                return items.compactMap(\.stringValue)
            },
            encode: { .strings($0) })
    }

    /// A string that names one of the cases of `Value`.
    public static func choice(_ name: String, summary: String) -> BridgeKey<Value>
    where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
        let names = Value.allCases.map(\.rawValue)
        return BridgeKey(
            name, types: ["s"], summary: summary,
            decode: { value, place throws(DBusFailure) in
                guard case .string(let text) = value else {
                    throw place.wrongType(value, expected: "s", example: "<'\(names[0])'>")
                }
                guard let chosen = Value(rawValue: text) else {
                    throw place.invalid(
                        "is \(quotedForMessage(text)); use one of " + names.map { "'\($0)'" }.joined(separator: ", "))
                }
                return chosen
            },
            encode: { .string($0.rawValue) })
    }

    /// The same key with a check or a conversion added after reading, and its inverse for writing.
    public func map<Other: Sendable>(
        decode: @escaping @Sendable (Value, KeyPlace) throws(DBusFailure) -> Other,
        encode: @escaping @Sendable (Other) -> Value
    ) -> BridgeKey<Other> {
        let read = self.read
        let write = self.write
        return BridgeKey<Other>(
            info.name, types: info.types, summary: info.summary,
            decode: { value, place throws(DBusFailure) in try decode(try read(value, place), place) },
            encode: { write(encode($0)) })
    }
}

extension BridgeKey where Value == Int64 {
    /// A 64-bit integer (`x`).
    public static func int64(_ name: String, summary: String) -> BridgeKey<Int64> {
        BridgeKey<Int64>(
            name, types: ["x"], summary: summary,
            decode: { value, place throws(DBusFailure) in
                guard case .int64(let number) = value else {
                    throw place.wrongType(value, expected: "x", example: "<int64 1767254400>")
                }
                return number
            },
            encode: { .int64($0) })
    }
}
