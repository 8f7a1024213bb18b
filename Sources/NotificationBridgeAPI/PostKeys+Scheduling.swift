import DBusCore
import NotificationModel

/// The scheduling keys of `Post`: without them the notification is shown at once. ``PostSchedule`` is what they
/// say together.
extension PostKeys {
    /// `fire-date` (x seconds since 1970, or s `YYYY-MM-DDTHH:MM:SS` with `time-zone`).
    public static let fireDate = BridgeKey<FireDate>(
        "fire-date", types: ["x", "s"],
        summary: "seconds since 1970 (an instant), or 'YYYY-MM-DDTHH:MM:SS' (needs time-zone)",
        decode: ScheduleWire.fireDate(_:_:), encode: ScheduleWire.value(of:))
    /// `time-zone` (s): `'local'`.
    public static let timeZone = BridgeKey.string(
        "time-zone", example: "<'local'>",
        summary: "'local': the fire date is a wall-clock time in the user's zone, and follows it")
    /// `in` (d, x or u): seconds from now.
    public static let delay = BridgeKey<Double>(
        "in", types: ["d", "x", "u"], summary: "seconds from now (a time interval)",
        decode: ScheduleWire.delay(_:_:), encode: { .double($0) })
    /// `repeat` (s, or b with `calendar`).
    public static let `repeat` = BridgeKey<RepeatChoice>(
        "repeat", types: ["s", "b"],
        summary: "'minute' … 'year', from the first fire date; true (every match) with calendar",
        decode: RepeatChoice.decode(_:_:), encode: \.wireValue)
    /// `calendar` (a{sv}, keys in ``CalendarKeys``).
    public static let calendar = BridgeKey<CalendarMatch>(
        "calendar", types: ["a{sv}"],
        summary: "the next wall-clock time matching month, day, weekdays, hour, minute, second",
        decode: CalendarKeys.decode(_:_:), encode: CalendarKeys.value(of:))

    /// The scheduling keys.
    public static let scheduling: [BridgeKeyInfo] = [
        fireDate.info, timeZone.info, delay.info, `repeat`.info, calendar.info,
    ]
    /// The `time-zone` values that mean "the user's zone, whatever it is when the notification fires".
    public static let followingZoneNames = ["local", "user", "current", "system", "floating"]
}

/// The value of `repeat`.
public enum RepeatChoice: Sendable, Hashable {
    /// An interval name, with `fire-date` or `in`.
    case interval(RepeatRule.Interval)
    /// A boolean, with `calendar`: at every match, or once.
    case everyMatch(Bool)

    var wireValue: DBusValue {
        switch self {
        case .interval(let interval): .string(interval.rawValue)
        case .everyMatch(let flag): .boolean(flag)
        }
    }

    static func decode(_ value: DBusValue, _ place: KeyPlace) throws(DBusFailure) -> RepeatChoice {
        let names = RepeatRule.Interval.allCases.map(\.rawValue)
        switch value {
        case .boolean(let flag): return .everyMatch(flag)
        case .string(let name):
            guard let interval = RepeatRule.Interval(rawValue: name) else {
                throw place.invalid(
                    "is \(quotedForMessage(name)); use one of " + names.map { "'\($0)'" }.joined(separator: ", "))
            }
            return .interval(interval)
        default: throw place.wrongType(value, expected: "s", example: "<'\(names[0])'>")
        }
    }
}

/// Reading and writing the scheduling keys' values.
enum ScheduleWire {
    static let fireDateForms =
        "use seconds since 1970 for an instant, e.g. 'fire-date': <int64 1767254400>, or a wall-clock time with "
        + "'time-zone', e.g. 'fire-date': <'2026-01-01T09:00:00'>, 'time-zone': <'local'>"

    static func fireDate(_ value: DBusValue, _ place: KeyPlace) throws(DBusFailure) -> FireDate {
        if case .string(let text) = value {
            guard let time = LocalDateTime(parsing: text) else {
                throw place.invalid("is \(quotedForMessage(text)), which is not YYYY-MM-DDTHH:MM:SS; " + fireDateForms)
            }
            return .wallClock(time)
        }
        guard let seconds = number(value) else {
            throw place.wrongType(value, expected: "x", example: "<int64 1767254400>")
        }
        return .instant(secondsSince1970: seconds)
    }

    /// An instant as whole seconds (rounded down), a wall-clock time as text.
    static func value(of fireDate: FireDate) -> DBusValue {
        switch fireDate {
        case .instant(let seconds): .int64(Int64(seconds.rounded(.down)))
        case .wallClock(let time): .string(time.description)
        }
    }

    /// `in`: seconds from now, above zero, at most 100 years.
    static func delay(_ value: DBusValue, _ place: KeyPlace) throws(DBusFailure) -> Double {
        guard let seconds = number(value) else {
            throw place.wrongType(value, expected: "d", example: "<60.0> or <uint32 60>")
        }
        guard seconds.isFinite, seconds > 0 else {
            throw place.invalid("is \(seconds); use a number of seconds above 0, e.g. 'in': <60.0>")
        }
        guard seconds <= NotificationTrigger.maximumInterval else {
            throw place.invalid("is \(seconds) seconds, more than 100 years; use 'fire-date' for far dates")
        }
        return seconds
    }

    /// A number of seconds in any numeric D-Bus type.
    static func number(_ value: DBusValue) -> Double? {
        switch value {
        case .double(let v): v
        case .int64(let v): Double(v)
        case .uint64(let v): Double(v)
        case .int32(let v): Double(v)
        case .uint32(let v): Double(v)
        case .int16(let v): Double(v)
        case .uint16(let v): Double(v)
        case .byte(let v): Double(v)
        default: nil
        }
    }
}
