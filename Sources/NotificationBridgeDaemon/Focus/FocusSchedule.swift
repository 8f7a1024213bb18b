import FoundationEssentials
import NotificationBridgeAPI
import NotificationModel
import NotificationScheduling

/// When a focus mode turns itself on and off: on the given days, from one wall-clock time to another, which may be on
/// the next day ("every night from 22:00 to 07:00").
///
/// Read in the user's time zone by the scheduler's own rules (``TriggerEvaluator``): a start in the gap of a
/// spring-forward night begins at the first instant after the gap, a time the clock shows twice counts once, and a
/// period keeps its wall-clock end, so a night that loses or gains an hour is an hour shorter or longer. The value
/// keeps no clock: it answers for any instant it is asked about, so a step of the wall clock only asks it again.
struct FocusSchedule: Sendable, Hashable, Codable {
    /// A wall-clock time of day, to the minute.
    struct TimeOfDay: Sendable, Hashable, Codable, CustomStringConvertible {
        var hour: Int
        var minute: Int

        /// `HH:MM`, as the command line reads and writes it.
        var description: String {
            (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
        }

        /// Reads `HH:MM` (or `H:MM`) on a 24-hour clock.
        ///
        /// - Throws: ``FocusError`` saying what was wrong and what is meant.
        init(_ text: String) throws(FocusError) {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, let hour = Int(parts[0]), let minute = Int(parts[1]), parts[1].count == 2,
                (0...23).contains(hour), (0...59).contains(minute)
            else {
                throw FocusError(
                    "\(quotedForMessage(text)) is not a time of day; write it as HH:MM on a 24-hour clock, as 07:30 "
                        + "or 22:00")
            }
            self.hour = hour
            self.minute = minute
        }

        init(hour: Int, minute: Int) {
            self.hour = hour
            self.minute = minute
        }
    }

    /// The days a period starts on; a period that ends after midnight ends on the next day.
    var days: Set<CalendarMatch.Weekday>
    /// When a period starts.
    var start: TimeOfDay
    /// When it ends: on the same day when later than ``start``, else on the next day (the same time: a whole day).
    var end: TimeOfDay

    /// A schedule of `days` from `start` to `end`.
    ///
    /// - Throws: ``FocusError`` when no day is given.
    init(days: Set<CalendarMatch.Weekday>, start: TimeOfDay, end: TimeOfDay) throws(FocusError) {
        guard !days.isEmpty else {
            throw FocusError("a schedule needs at least one day; name them (monday … sunday), or say every day")
        }
        self.days = days
        self.start = start
        self.end = end
    }

    /// The period the schedule has the mode on at `date`: from its start, inclusive, to its end, exclusive; `nil`
    /// when the mode is off then.
    func period(containing date: Date, in evaluator: TriggerEvaluator) -> Range<Date>? {
        guard let started = latestStart(atOrBefore: date, in: evaluator) else { return nil }
        let ends = periodEnd(after: started, in: evaluator)
        return date < ends ? started..<ends : nil
    }

    /// The first instant after `date` at which the schedule turns the mode on or off: the end of the period `date`
    /// is in, else the next start.
    func nextChange(after date: Date, in evaluator: TriggerEvaluator) -> Date? {
        if let period = period(containing: date, in: evaluator) { return period.upperBound }
        return evaluator.nextFireDate(after: date, for: startTrigger, anchor: .distantPast)
    }

    private var startTrigger: NotificationTrigger {
        .calendar(CalendarMatch(weekdays: days, hour: start.hour, minute: start.minute), repeats: true)
    }

    /// The latest start at or before `date`. A period lasts at most a day, so a start more than a week and a day back
    /// cannot matter: the search starts there and walks forward.
    private func latestStart(atOrBefore date: Date, in evaluator: TriggerEvaluator) -> Date? {
        var latest: Date?
        var cursor = date.addingTimeInterval(-8 * 86_400)
        while let next = evaluator.nextFireDate(after: cursor, for: startTrigger, anchor: .distantPast), next <= date {
            latest = next
            cursor = next
        }
        return latest
    }

    /// The first wall-clock ``end`` after `started`.
    private func periodEnd(after started: Date, in evaluator: TriggerEvaluator) -> Date {
        let ends = NotificationTrigger.calendar(CalendarMatch(hour: end.hour, minute: end.minute), repeats: true)
        // Every day has the time (or the first instant after its gap), so there always is one.
        return evaluator.nextFireDate(after: started, for: ends, anchor: .distantPast)
            ?? started.addingTimeInterval(86_400)
    }
}
