import DBusCore
import NotificationModel

/// The keys of `Post`'s `calendar` (`a{sv}`): the fields a wall-clock time must match; absent fields match any value.
///
/// `'calendar': <{'weekdays': <['monday', 'friday']>, 'hour': <9>, 'minute': <0>}>`
public enum CalendarKeys {
    /// An example for messages, in `gdbus` notation.
    public static let example =
        "<{'\(weekdays.name)': <['monday', 'friday']>, '\(hour.name)': <9>, '\(minute.name)': <0>}>"

    /// `month` (i): 1–12.
    public static let month = integer("month", example: "<12>", summary: "1-12")
    /// `day` (i): 1–31.
    public static let day = integer("day", example: "<24>", summary: "day of the month, 1-31")
    /// `weekdays` (as, or one s): lowercase English names.
    public static let weekdays = BridgeKey<Set<CalendarMatch.Weekday>>(
        "weekdays", types: ["as", "s"], summary: "day names, 'sunday' … 'saturday'",
        decode: weekdays(_:_:), encode: { .strings($0.sorted().map(\.name)) })
    /// `hour` (i): 0–23.
    public static let hour = integer("hour", example: "<9>", summary: "0-23")
    /// `minute` (i): 0–59.
    public static let minute = integer("minute", example: "<30>", summary: "0-59")
    /// `second` (i): 0–59.
    public static let second = integer("second", example: "<0>", summary: "0-59")

    /// Every key, in the order error messages list them.
    public static let all: [BridgeKeyInfo] = [
        month.info, day.info, weekdays.info, hour.info, minute.info, second.info,
    ]

    /// A whole number in any integer D-Bus type (`<9>` is an int32 in gdbus notation).
    private static func integer(_ name: String, example: String, summary: String) -> BridgeKey<Int> {
        BridgeKey<Int>(
            name, types: ["i"], summary: summary,
            decode: { value, place throws(DBusFailure) in
                switch value {
                case .byte(let v): return Int(v)
                case .int16(let v): return Int(v)
                case .uint16(let v): return Int(v)
                case .int32(let v): return Int(v)
                case .uint32(let v): return Int(v)
                case .int64(let v): return Int(exactly: v) ?? Int.max
                case .uint64(let v): return Int(exactly: v) ?? Int.max
                default: throw place.wrongType(value, expected: "i", example: example)
                }
            },
            encode: { .int32(Int32(clamping: $0)) })
    }

    /// `weekdays`: names (`'monday'`), as an array or one string.
    private static func weekdays(_ value: DBusValue, _ place: KeyPlace) throws(DBusFailure)
        -> Set<CalendarMatch.Weekday>
    {
        let names: [String]
        switch value {
        case .string(let name): names = [name]
        case .array(let element, let items) where element == "s": names = items.compactMap(\.stringValue)
        default: throw place.wrongType(value, expected: "as", example: "<['monday', 'friday']>")
        }
        var days = Set<CalendarMatch.Weekday>()
        for name in names {
            guard let day = CalendarMatch.Weekday(name: name.lowercased()) else {
                throw place.invalid(
                    "has \(quotedForMessage(name)), which is not a day; use lowercase English names, "
                        + "'sunday' … 'saturday'")
            }
            days.insert(day)
        }
        guard !days.isEmpty else {
            throw place.invalid("is empty; name at least one day, or leave 'weekdays' out for every day")
        }
        return days
    }

    /// Reads the `calendar` dictionary (not yet checked to match any time: ``NotificationPost`` does that).
    static func decode(_ value: DBusValue, _ place: KeyPlace) throws(DBusFailure) -> CalendarMatch {
        let fields = try VariantDictionary(value, place: "\(place.place) key '\(place.key)'", keys: all)
        var match = CalendarMatch()
        match.month = try fields.decode(month)
        match.day = try fields.decode(day)
        match.hour = try fields.decode(hour)
        match.minute = try fields.decode(minute)
        match.second = try fields.decode(second)
        match.weekdays = try fields.decode(weekdays)
        return match
    }

    /// The fields that are set.
    static func value(of match: CalendarMatch) -> DBusValue {
        var entries = WireEntries()
        entries[month] = match.month
        entries[day] = match.day
        entries[hour] = match.hour
        entries[minute] = match.minute
        entries[second] = match.second
        entries[weekdays] = match.weekdays
        return entries.value
    }
}
