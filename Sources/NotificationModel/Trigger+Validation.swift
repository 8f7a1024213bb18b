/// The ranges validation enforces on trigger values.
enum TriggerRanges {
    static let years = 1...9999
    /// 0001-01-01T00:00:00Z, in seconds since 1970.
    static let earliestInstant = -62_135_596_800
    /// 9999-12-31T23:59:59Z, in seconds since 1970.
    static let latestInstant = 253_402_300_799
}

extension NotificationTrigger {
    /// Checks that the trigger can fire.
    ///
    /// Rules: wall-clock dates are real dates (month 1–12, a day the month has, hour 0–23, minute and second
    /// 0–59, year 1–9999); instants are finite and within the years 1–9999; intervals are finite, more than 0 and
    /// at most ``maximumInterval`` seconds, and at least ``minimumRepeatingInterval`` when repeating; calendar
    /// matches set at least one field, their fields are in range, their day occurs in their month, and their
    /// weekday set is not empty.
    ///
    /// - Throws: ``TriggerValidationError`` naming the field (`trigger.fireDate.wallClock.day`, …).
    public func validate() throws(TriggerValidationError) {
        try validate(at: "trigger")
    }

    /// Checks the trigger, naming fields below `path`.
    public func validate(at path: String) throws(TriggerValidationError) {
        switch self {
        case .date(let fireDate, _):
            try fireDate.validate(at: "\(path).fireDate")
        case .timeInterval(let seconds, let repeats):
            let field = "\(path).seconds"
            guard seconds.isFinite else { throw .nonFiniteSeconds(field: field) }
            guard seconds > 0 else { throw .nonPositiveInterval(field: field, seconds: seconds) }
            guard seconds <= Self.maximumInterval else {
                throw .intervalTooLong(field: field, seconds: seconds, limit: Self.maximumInterval)
            }
            guard !repeats || seconds >= Self.minimumRepeatingInterval else {
                throw .repeatingIntervalTooShort(field: field, seconds: seconds, minimum: Self.minimumRepeatingInterval)
            }
        case .calendar(let match, _):
            try match.validate(at: "\(path).match")
        }
    }
}

extension FireDate {
    /// Checks that the fire date names a real moment; see ``NotificationTrigger/validate()``.
    ///
    /// - Throws: ``TriggerValidationError`` naming the field below `path`.
    public func validate(at path: String = "fireDate") throws(TriggerValidationError) {
        switch self {
        case .instant(let seconds):
            let field = "\(path).instant"
            guard seconds.isFinite else { throw .nonFiniteSeconds(field: field) }
            guard Double(TriggerRanges.earliestInstant) <= seconds, seconds <= Double(TriggerRanges.latestInstant)
            else { throw .instantOutOfRange(field: field, secondsSince1970: seconds) }
        case .wallClock(let time):
            try time.validate(at: "\(path).wallClock")
        }
    }
}

extension LocalDateTime {
    /// Checks that the fields name a real wall-clock time: year 1–9999, month 1–12, a day the month has in that
    /// year, hour 0–23, minute and second 0–59.
    ///
    /// - Throws: ``TriggerValidationError`` naming the field below `path`.
    public func validate(at path: String = "dateTime") throws(TriggerValidationError) {
        guard TriggerRanges.years.contains(year) else { throw .yearOutOfRange(field: "\(path).year", value: year) }
        guard (1...12).contains(month) else { throw .monthOutOfRange(field: "\(path).month", value: month) }
        guard (1...Self.daysInMonth(month, year: year)).contains(day) else {
            throw .dayOutOfRange(field: "\(path).day", value: day, month: month, year: year)
        }
        try validateTime(hour: hour, minute: minute, second: second, at: path)
    }
}

extension CalendarMatch {
    /// Checks that the match can fire; see ``NotificationTrigger/validate()``.
    ///
    /// - Throws: ``TriggerValidationError`` naming the field below `path`.
    public func validate(at path: String = "match") throws(TriggerValidationError) {
        guard !isEmpty else { throw .emptyCalendarMatch(field: path) }
        if let month, !(1...12).contains(month) { throw .monthOutOfRange(field: "\(path).month", value: month) }
        if let day {
            let longest = month.map(CivilCalendar.maxDaysInMonth) ?? 31
            guard (1...longest).contains(day) else {
                throw .dayNeverOccurs(field: "\(path).day", value: day, month: month)
            }
        }
        if let weekdays, weekdays.isEmpty { throw .emptyWeekdays(field: "\(path).weekdays") }
        try validateTime(hour: hour, minute: minute, second: second, at: path)
    }
}

/// Checks the time fields that are set.
private func validateTime(hour: Int?, minute: Int?, second: Int?, at path: String) throws(TriggerValidationError) {
    if let hour, !(0...23).contains(hour) { throw .hourOutOfRange(field: "\(path).hour", value: hour) }
    if let minute, !(0...59).contains(minute) { throw .minuteOutOfRange(field: "\(path).minute", value: minute) }
    if let second, !(0...59).contains(second) { throw .secondOutOfRange(field: "\(path).second", value: second) }
}
