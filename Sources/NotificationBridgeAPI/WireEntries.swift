import DBusCore

/// A dictionary of the interface being written, key by key, each value encoded as its key says.
///
/// ```swift
/// var entries = WireEntries()
/// entries[PostKeys.title] = "Tea is ready"
/// entries[PostKeys.timeout] = 5000
/// try await proxy.post(entries)
/// ```
public struct WireEntries: Sendable, Hashable {
    /// The entries, values without their variants.
    public private(set) var values: [String: DBusValue]

    /// An empty dictionary.
    public init() { values = [:] }

    /// Takes the entries of a received `a{sv}` (variants removed); `nil` when it is not one.
    public init?(_ value: DBusValue) {
        guard let entries = value.stringKeyedEntries else { return nil }
        values = entries.mapValues(\.unwrappedVariant)
    }

    /// Sets (or, with `nil`, removes) a key; reading gives what was set, or `nil` for a value the key does not read.
    public subscript<Value>(key: BridgeKey<Value>) -> Value? {
        get { values[key.name].flatMap { try? key.read($0, KeyPlace(place: "entries", key: key.name)) } }
        set { values[key.name] = newValue.map(key.write) }
    }

    /// Sets a key to a value given as it is, unchecked: for a value taken from elsewhere as is (a server hint that
    /// the daemon has a key for), which the daemon then checks.
    public mutating func setUnchecked<Value>(_ key: BridgeKey<Value>, _ value: DBusValue) {
        values[key.name] = value
    }

    /// Adds the entries of `other`, whose values win.
    public mutating func merge(_ other: WireEntries) {
        values.merge(other.values) { $1 }
    }

    /// Whether a key is set.
    public func contains<Value>(_ key: BridgeKey<Value>) -> Bool { values[key.name] != nil }

    /// The `a{sv}` value.
    public var value: DBusValue { .vardict(values) }
}
