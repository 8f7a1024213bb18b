import DBusCore

/// The arguments of one `Notify` call, decoded, before the profile's rules apply.
struct NotifyRequest: Sendable {
    var appName: String
    var replacesID: UInt32
    var icon: String
    var summary: String
    var body: String
    /// The flat `[key, label, key, label, …]` list as sent.
    var flatActions: [String]
    /// The hints, each the value that was inside its variant.
    var hints: [String: DBusValue]
    var expireTimeout: Int32

    /// Decodes `susssasa{sv}i`.
    ///
    /// - Throws: `DBusFailure` (`InvalidArgs`) when the arguments have another signature.
    init(arguments: [DBusValue]) throws(DBusFailure) {
        let decoded = try arguments.decode(
            String.self, UInt32.self, String.self, String.self, String.self, [String].self,
            [String: DBusVariant].self, Int32.self)
        (appName, replacesID, icon, summary, body, flatActions) =
            (decoded.0, decoded.1, decoded.2, decoded.3, decoded.4, decoded.5)
        hints = decoded.6.mapValues(\.value)
        expireTimeout = decoded.7
    }

    /// The action pairs the server shows under `policy`.
    ///
    /// - Throws: `DBusFailure` (`InvalidArgs`) for an odd-length list when the policy refuses it.
    func actions(under policy: OddActionListPolicy) throws(DBusFailure) -> [ServedNotification.Action] {
        if !flatActions.count.isMultiple(of: 2) {
            switch policy {
            case .dropAll:
                return []
            case .dropUnpairedKey:
                break
            case .refuse:
                throw DBusFailure(
                    name: DBusFailure.Name.invalidArgs,
                    message: "actions must be pairs of key and label; got \(flatActions.count) strings, the last key "
                        + "'\(flatActions.last ?? "")' has no label")
            }
        }
        return stride(from: 0, to: flatActions.count - 1, by: 2).map {
            ServedNotification.Action(key: flatActions[$0], label: flatActions[$0 + 1])
        }
    }

    /// The urgency level the server applies under `policy`: the hint's value, or 1 (normal) without a usable hint.
    ///
    /// - Throws: `DBusFailure` (`InvalidArgs`) for a hint that is not a byte when the policy requires one.
    func urgency(under policy: UrgencyHintPolicy) throws(DBusFailure) -> UInt8 {
        guard let hint = hints["urgency"] else { return 1 }
        if case .byte(let level) = hint { return level }
        switch policy {
        case .anyInteger:
            guard let level = ServedNotification.integer(hint) else { return 1 }
            return UInt8(clamping: level)
        case .byteOnly:
            return 1
        case .byteRequired:
            throw DBusFailure(
                name: DBusFailure.Name.invalidArgs,
                message: "hint 'urgency' must be a byte (type 'y': 0 low, 1 normal, 2 critical); got type "
                    + "'\(hint.signature)'. In gdbus text write <byte 2>")
        }
    }

    /// What makes two notifications identical for a server that refuses repeats.
    var repeatKey: [String] { [appName, summary, body] }
}
