import DBusCore
import NotificationModel

/// The checks and conversions of the content keys whose values are more than a string: `sound`, `urgency`,
/// `timeout`, `badge`, `summary-argument-count`.
enum ContentWire {
    static func sound(_ text: String, _ place: KeyPlace) throws(DBusFailure) -> NotificationSound {
        switch text {
        case "": throw place.invalid("is empty; use 'default', 'none', a sound file path or a sound name")
        case "default": return .default
        case "none": return .none
        case _ where text.hasPrefix("/"): return .file(text)
        default: return .named(text)
        }
    }

    static func text(of sound: NotificationSound) -> String {
        switch sound {
        case .default: "default"
        case .none: "none"
        case .named(let name): name
        case .file(let path): path
        }
    }

    static func urgency(_ value: DBusValue, _ place: KeyPlace) throws(DBusFailure) -> NotificationUrgency {
        let urgency: NotificationUrgency?
        switch value {
        case .string(let name): urgency = NotificationUrgency(name: name)
        case .byte(let level): urgency = NotificationUrgency(rawValue: level)
        case .int32(let level): urgency = UInt8(exactly: level).flatMap(NotificationUrgency.init(rawValue:))
        default: throw place.wrongType(value, expected: "s", example: "<'critical'>")
        }
        guard let urgency else {
            let shown = value.stringValue.map { quotedForMessage($0) } ?? value.description
            throw place.invalid("is \(shown); use 'low', 'normal' or 'critical' (or 0, 1, 2)")
        }
        return urgency
    }

    static func timeout(_ milliseconds: Int32, _ place: KeyPlace) throws(DBusFailure) -> NotificationTimeout {
        guard let value = NotificationTimeout(wireValue: milliseconds) else {
            throw place.invalid(
                "is \(milliseconds); use a number of milliseconds, -1 for the server's default or 0 for never")
        }
        return value
    }

    static func badge(_ count: Int32, _ place: KeyPlace) throws(DBusFailure) -> Int {
        guard count >= 0 else { throw place.invalid("is \(count); use 0 or more (0 hides the badge)") }
        return Int(count)
    }

    static func summaryCount(_ count: Int32, _ place: KeyPlace) throws(DBusFailure) -> Int {
        guard count >= 0 else { throw place.invalid("is \(count); use 0 or more (1, the default, for one message)") }
        return Int(count)
    }
}
