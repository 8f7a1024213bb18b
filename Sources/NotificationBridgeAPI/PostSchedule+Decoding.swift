import DBusCore
import NotificationModel

extension PostSchedule {
    /// The schedule the scheduling keys of a `Post` describe, or `nil` when there are none.
    ///
    /// - Parameter currentZoneName: the name of the user's zone (`Europe/Paris`), which `time-zone` may give too;
    ///   asked for only when there is a `time-zone`.
    /// - Throws: `InvalidArgument` for keys that do not go together, and for a time that never comes.
    init?(_ reader: VariantDictionary, currentZoneName: () -> String?) throws(DBusFailure) {
        if let calendar = try Self.calendar(reader) {
            self = calendar
            return
        }
        if case .boolean? = reader.value(PostKeys.repeat) {
            throw reader.invalid(
                PostKeys.repeat,
                "is a boolean, which goes with 'calendar'; with 'fire-date' or 'in' "
                    + "give an interval: "
                    + RepeatRule.Interval.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", "))
        }
        let interval: RepeatRule.Interval? =
            if case .interval(let interval)? = try reader.decode(PostKeys.repeat) { interval } else { nil }
        let followsZone = try Self.followsTimeZone(reader, currentZoneName: currentZoneName)
        if reader.contains(PostKeys.delay) {
            if reader.contains(PostKeys.fireDate) {
                throw BridgeError.invalid(
                    "notification has both 'fire-date' and 'in'; it fires once first, so keep one of them")
            }
            if followsZone {
                throw reader.invalid(
                    PostKeys.timeZone,
                    "goes with 'fire-date'; 'in' counts elapsed seconds, which no "
                        + "zone moves, so leave 'time-zone' out")
            }
            self = .delay(seconds: try reader.decode(PostKeys.delay)!, repeat: interval)
            return
        }
        guard let fireDate = try reader.decode(PostKeys.fireDate) else {
            if interval != nil {
                throw reader.invalid(
                    PostKeys.repeat,
                    "needs 'fire-date' or 'in' to say when it fires first, e.g. "
                        + "'in': <60.0>, 'repeat': <'hour'>")
            }
            if followsZone {
                throw reader.invalid(
                    PostKeys.timeZone,
                    "needs 'fire-date': a wall-clock time such as "
                        + "<'2026-01-01T09:00:00'>")
            }
            return nil
        }
        switch fireDate {
        case .wallClock:
            guard followsZone else {
                throw reader.invalid(
                    PostKeys.fireDate,
                    "is a wall-clock time, which needs 'time-zone': <'local'> "
                        + "(the user's zone, followed when it changes); for an absolute instant give seconds since 1970, "
                        + "e.g. <int64 1767254400>")
            }
            self = .date(fireDate, repeat: interval)
        case .instant(let seconds) where followsZone:
            // As UILocalNotification does with a time zone: the instant's wall-clock time in the user's zone.
            guard seconds.isFinite, abs(seconds) < 1e12 else {
                throw reader.invalid(PostKeys.fireDate, "is \(seconds); " + ScheduleWire.fireDateForms)
            }
            self = .wallClockOfInstant(secondsSince1970: seconds, repeat: interval)
            return
        case .instant:
            self = .date(fireDate, repeat: interval)
        }
        try Self.check(.date(fireDate, repeat: interval.map(RepeatRule.interval)), key: PostKeys.fireDate, reader)
    }

    /// Checks that a trigger is a valid time, naming `key` in the error.
    static func check<Value>(_ trigger: NotificationTrigger, key: BridgeKey<Value>, _ reader: VariantDictionary)
        throws(DBusFailure)
    {
        do throws(TriggerValidationError) {
            try trigger.validate()
        } catch {
            throw reader.invalid(
                key,
                "is not a valid time: \(error); "
                    + (key.name == PostKeys.delay.name
                        ? "use a number of seconds above 0, e.g. 'in': <60.0>" : ScheduleWire.fireDateForms))
        }
    }

    /// The `calendar` schedule, or `nil` when there is no `calendar` key.
    private static func calendar(_ reader: VariantDictionary) throws(DBusFailure) -> PostSchedule? {
        guard reader.contains(PostKeys.calendar) else { return nil }
        for other in [PostKeys.fireDate.name, PostKeys.delay.name] where reader.contains(other) {
            throw BridgeError.invalid(
                "notification has both 'calendar' and '\(other)'; a calendar match says when it fires by itself, "
                    + "keep one of them")
        }
        if let zone = try reader.decode(PostKeys.timeZone), !PostKeys.followingZoneNames.contains(zone.lowercased()) {
            throw reader.invalid(
                PostKeys.timeZone,
                "is \(quotedForMessage(zone)); a calendar match always follows the user's zone, so "
                    + "leave 'time-zone' out (or give 'local')")
        }
        var repeats = false
        switch reader.value(PostKeys.repeat) {
        case nil: break
        case .boolean(let flag)?: repeats = flag
        case .string(let name)?:
            throw reader.invalid(
                PostKeys.repeat,
                "is \(quotedForMessage(name)); with 'calendar' it repeats at every match, so give "
                    + "'repeat': <true> (an interval name goes with 'fire-date' or 'in')")
        case let other?:
            throw reader.wrongType(PostKeys.repeat.name, other, expected: "b", example: "<true>")
        }
        let match = try reader.decode(PostKeys.calendar)!
        do throws(TriggerValidationError) {
            try NotificationTrigger.calendar(match, repeats: repeats).validate()
        } catch {
            throw reader.invalid(
                PostKeys.calendar, "does not match any time: \(error); e.g. 'calendar': \(CalendarKeys.example)")
        }
        return .calendar(match, repeats: repeats)
    }

    /// Whether `time-zone` asks for a wall-clock time that follows the user's zone.
    ///
    /// The zone's own name (as `TZ` gives it) counts as following it too.
    private static func followsTimeZone(_ reader: VariantDictionary, currentZoneName: () -> String?)
        throws(DBusFailure) -> Bool
    {
        guard let zone = try reader.decode(PostKeys.timeZone) else { return false }
        guard PostKeys.followingZoneNames.contains(zone.lowercased()) || zone == currentZoneName() else {
            throw reader.invalid(
                PostKeys.timeZone,
                "is \(quotedForMessage(zone)); use 'local' (the user's zone, "
                    + "followed when it changes); for a time in a fixed zone give 'fire-date' as seconds since 1970 "
                    + "without 'time-zone'")
        }
        return true
    }
}
