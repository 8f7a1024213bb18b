import DBusCore
import NotificationModel

/// The D-Bus form of calendar triggers: `calendar`, and `repeat` as a boolean with it (``BridgeWireFormat`` writes
/// them).
///
/// `'calendar': <{'weekdays': <['monday', 'friday']>, 'hour': <9>, 'minute': <0>}>` fires at the next wall-clock time
/// in the user's zone whose fields match (keys `month`, `day`, `weekdays`, `hour`, `minute`, `second`); with
/// `'repeat': <true>` at every match after that too.
enum TriggerCoding {
    static let calendarKeys = ["month", "day", "weekdays", "hour", "minute", "second"]
    static let calendarExample = "<{'weekdays': <['monday', 'friday']>, 'hour': <9>, 'minute': <0>}>"

    /// The calendar trigger of a `Post`, or `nil` when it has no `calendar` key.
    ///
    /// - Throws: `InvalidArgument` for a match that is malformed or never occurs, and for `calendar` together with
    ///   `fire-date` or `in`, or with an interval name in `repeat`.
    static func calendarTrigger(_ reader: VariantDictionary) throws(DBusFailure) -> NotificationTrigger? {
        guard let value = reader.value("calendar") else { return nil }
        for other in ["fire-date", "in"] where reader.contains(other) {
            throw BridgeError.invalid(
                "notification has both 'calendar' and '\(other)'; a calendar match says when it fires by itself, "
                    + "keep one of them")
        }
        if let zone = try reader.string("time-zone", example: "<'local'>"),
            !PostRequest.followingZoneNames.contains(zone.lowercased())
        {
            throw reader.invalid(
                "time-zone", "is \(quotedForMessage(zone)); a calendar match always follows the user's zone, so "
                    + "leave 'time-zone' out (or give 'local')")
        }
        var repeats = false
        switch reader.value("repeat") {
        case nil: break
        case .boolean(let flag)?: repeats = flag
        case .string(let name)?:
            throw reader.invalid(
                "repeat", "is \(quotedForMessage(name)); with 'calendar' it repeats at every match, so give "
                    + "'repeat': <true> (an interval name goes with 'fire-date' or 'in')")
        case let other?:
            throw reader.wrongType("repeat", other, expected: "b", example: "<true>")
        }
        let fields = try VariantDictionary(value, place: "notification key 'calendar'", known: calendarKeys)
        var match = CalendarMatch()
        match.month = try integer(fields, "month", example: "<12>")
        match.day = try integer(fields, "day", example: "<24>")
        match.hour = try integer(fields, "hour", example: "<9>")
        match.minute = try integer(fields, "minute", example: "<30>")
        match.second = try integer(fields, "second", example: "<0>")
        if let value = fields.value("weekdays") { match.weekdays = try weekdays(value, fields) }
        let trigger = NotificationTrigger.calendar(match, repeats: repeats)
        do throws(TriggerValidationError) {
            try trigger.validate()
        } catch {
            throw reader.invalid(
                "calendar", "does not match any time: \(error); e.g. 'calendar': \(calendarExample)")
        }
        return trigger
    }

    /// A whole number in any integer D-Bus type (`<9>` is an int32 in gdbus notation).
    private static func integer(_ fields: VariantDictionary, _ key: String, example: String) throws(DBusFailure)
        -> Int?
    {
        guard let value = fields.value(key) else { return nil }
        switch value {
        case .byte(let v): return Int(v)
        case .int16(let v): return Int(v)
        case .uint16(let v): return Int(v)
        case .int32(let v): return Int(v)
        case .uint32(let v): return Int(v)
        case .int64(let v): return Int(exactly: v) ?? Int.max
        case .uint64(let v): return Int(exactly: v) ?? Int.max
        default: throw fields.wrongType(key, value, expected: "i", example: example)
        }
    }

    /// `weekdays`: names (`'monday'`), as an array or one string.
    private static func weekdays(_ value: DBusValue, _ fields: VariantDictionary) throws(DBusFailure)
        -> Set<CalendarMatch.Weekday>
    {
        let names: [String]
        switch value {
        case .string(let name): names = [name]
        case .array(let element, let items) where element == "s": names = items.compactMap(\.stringValue)
        default: throw fields.wrongType("weekdays", value, expected: "as", example: "<['monday', 'friday']>")
        }
        var days = Set<CalendarMatch.Weekday>()
        for name in names {
            guard let day = CalendarMatch.Weekday(name: name.lowercased()) else {
                throw fields.invalid(
                    "weekdays", "has \(quotedForMessage(name)), which is not a day; use lowercase English names, "
                        + "'sunday' … 'saturday'")
            }
            days.insert(day)
        }
        guard !days.isEmpty else {
            throw fields.invalid("weekdays", "is empty; name at least one day, or leave 'weekdays' out for every day")
        }
        return days
    }
}
