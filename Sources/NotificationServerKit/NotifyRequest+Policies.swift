import DBusCore
import FreedesktopNotifications

/// How the test server reads a `Notify` request under its profile's rules.
extension NotifyRequest {
    /// The action pairs the server shows under `policy`.
    ///
    /// - Throws: `DBusFailure` (`InvalidArgs`) for an odd-length list when the policy refuses it.
    func actions(under policy: OddActionListPolicy) throws(DBusFailure) -> [ServedNotification.Action] {
        if !actions.count.isMultiple(of: 2) {
            switch policy {
            case .dropAll:
                return []
            case .dropUnpairedKey:
                break
            case .refuse:
                throw DBusFailure(
                    name: DBusFailure.Name.invalidArgs,
                    message: "actions must be pairs of key and label; got \(actions.count) strings, the last key "
                        + "'\(actions.last ?? "")' has no label")
            }
        }
        return stride(from: 0, to: actions.count - 1, by: 2).map {
            ServedNotification.Action(key: actions[$0], label: actions[$0 + 1])
        }
    }

    /// The urgency level the server applies under `policy`: the hint's value, or 1 (normal) without a usable hint.
    ///
    /// - Throws: `DBusFailure` (`InvalidArgs`) for a hint that is not a byte when the policy requires one.
    func urgency(under policy: UrgencyHintPolicy) throws(DBusFailure) -> UInt8 {
        guard let hint = hints[StandardHint.urgency.rawValue] else { return 1 }
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
