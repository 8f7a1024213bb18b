/// When a scheduled notification fires: the trigger half of `UILocalNotification` (`fireDate`, `timeZone`,
/// `repeatInterval`, `repeatCalendar`).
///
/// ```swift
/// // Once, at an absolute instant.
/// NotificationTrigger.date(.instant(secondsSince1970: 1_767_254_400))
/// // 09:00 on 1 January 2026 wherever the user is, then every month on the 1st.
/// let newYear = LocalDateTime(year: 2026, month: 1, day: 1, hour: 9)
/// NotificationTrigger.date(.wallClock(newYear), repeat: .interval(.month))
/// // Ninety seconds after scheduling.
/// NotificationTrigger.timeInterval(seconds: 90)
/// // Every weekday at 09:00.
/// NotificationTrigger.calendar(CalendarMatch(weekdays: .mondayToFriday, hour: 9, minute: 0), repeats: true)
/// ```
///
/// Encoded as an object with a `kind` key; see the `Codable` conformance. The cases do not validate: call
/// ``validate()`` before scheduling.
public enum NotificationTrigger: Sendable, Hashable {
    /// Fires at `fireDate`, then, with a `repeat` rule, again at every repeat interval counted from `fireDate`.
    ///
    /// A fire date that has already passed when the notification is scheduled fires at once.
    case date(FireDate, repeat: RepeatRule? = nil)

    /// Fires `seconds` after the notification was scheduled, and with `repeats` every `seconds` after that.
    ///
    /// Elapsed time: time-zone changes do not move it. A repeating trigger needs at least
    /// ``minimumRepeatingInterval`` seconds, as on iOS.
    case timeInterval(seconds: Double, repeats: Bool = false)

    /// Fires at the next wall-clock time that matches, in the user's current time zone; with `repeats`, at every
    /// later match too.
    case calendar(CalendarMatch, repeats: Bool = false)

    /// The shortest interval of a repeating ``timeInterval(seconds:repeats:)`` trigger, in seconds, as on iOS.
    public static let minimumRepeatingInterval: Double = 60

    /// The longest interval of a ``timeInterval(seconds:repeats:)`` trigger: 100 years of 365.25 days, in seconds.
    ///
    /// Farther dates are better said with a ``date(_:repeat:)`` trigger.
    public static let maximumInterval: Double = 100 * 365.25 * 86_400

    /// Whether the trigger fires more than once.
    public var repeats: Bool {
        switch self {
        case .date(_, let rule): rule != nil
        case .timeInterval(_, let repeats), .calendar(_, let repeats): repeats
        }
    }

    /// Whether the trigger's fire dates are wall-clock times, which move when the user's time zone changes.
    ///
    /// `true` for ``FireDate/wallClock(_:)`` dates and for calendar matches; `false` for absolute instants and
    /// time intervals.
    public var followsTimeZone: Bool {
        switch self {
        case .date(let fireDate, _): fireDate.followsTimeZone
        case .timeInterval: false
        case .calendar: true
        }
    }
}
