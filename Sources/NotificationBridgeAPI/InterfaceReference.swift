/// Reference text generated from the contract's tables, so that what the interface says about itself (the
/// introspection XML's documentation) cannot fall behind what it takes: every key with its D-Bus types, every error
/// with what it means.
public enum InterfaceReference {
    /// The keys as `name (type): summary`, separated by semicolons, e.g. `title (s): the summary, in plain text`.
    public static func keys(_ keys: [BridgeKeyInfo]) -> String {
        keys.map(\.reference).joined(separator: "; ")
    }

    /// Every error of ``BridgeError/all``, as `Error.Name: meaning`, in one paragraph.
    public static var errors: String {
        BridgeError.all.map { error in
            error.meaning.isEmpty ? error.rawValue : "\(error.rawValue): \(error.meaning)"
        }.joined(separator: " ")
    }
}

extension BridgeKeyInfo {
    /// The key as the reference lists it: `name (type): summary`, the types joined by "or" (`urgency (s or y): …`).
    public var reference: String {
        "\(name) (\(types.joined(separator: " or "))): \(summary)"
    }
}
