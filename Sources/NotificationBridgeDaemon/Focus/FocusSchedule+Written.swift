import NotificationBridgeAPI
import NotificationModel

/// A schedule as a person writes it, on the command line, over the bus and in the settings file:
/// `DAYS HH:MM-HH:MM`, such as `mon-fri 22:00-07:00`, `sat,sun 23:30-09:00` or `every-day 13:00-14:00`. The days are
/// names (`monday` or `mon`), ranges of them in the week from Monday (`mon-fri`, `fri-mon`), separated by commas, or
/// `every-day`; an end earlier than the start is on the next day.
extension FocusSchedule {
    /// The days, as the written form begins with them.
    static let everyDay = "every-day"

    /// Reads a written schedule.
    ///
    /// - Throws: ``FocusError`` naming the part that is wrong and showing how to write one.
    init(written text: String) throws(FocusError) {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
        let times = parts.count == 2 ? parts[1].split(separator: "-", omittingEmptySubsequences: false) : []
        guard parts.count == 2, times.count == 2 else {
            throw FocusError(
                "the schedule \(quotedForMessage(text)) is not DAYS HH:MM-HH:MM; write it as mon-fri 22:00-07:00 "
                    + "or \(Self.everyDay) 13:00-14:00")
        }
        try self.init(
            days: try Self.days(String(parts[0])), start: try TimeOfDay(String(times[0])),
            end: try TimeOfDay(String(times[1])))
    }

    /// The schedule as ``init(written:)`` reads it: days from Monday, runs of three or more (across Sunday night too)
    /// as a range.
    var written: String {
        "\(Self.writtenDays(days)) \(start)-\(end)"
    }

    /// The week from Monday, as ranges run.
    private static let week: [CalendarMatch.Weekday] = [
        .monday, .tuesday, .wednesday, .thursday, .friday, .saturday, .sunday,
    ]

    private static func abbreviation(_ day: CalendarMatch.Weekday) -> String { String(day.name.prefix(3)) }

    private static func day(_ text: Substring) throws(FocusError) -> CalendarMatch.Weekday {
        let name = text.lowercased()
        guard let day = week.first(where: { $0.name == name || abbreviation($0) == name }) else {
            throw FocusError(
                "\(quotedForMessage(String(text))) is not a day; use monday … sunday or mon … sun, a range such as "
                    + "mon-fri, or \(everyDay)")
        }
        return day
    }

    private static func days(_ text: String) throws(FocusError) -> Set<CalendarMatch.Weekday> {
        if text.lowercased() == everyDay { return Set(week) }
        var days: Set<CalendarMatch.Weekday> = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let ends = item.split(separator: "-", omittingEmptySubsequences: false)
            guard ends.count <= 2 else {
                throw FocusError("\(quotedForMessage(String(item))) is not a day or a range of days, such as mon-fri")
            }
            let first = try day(ends[0])
            let last = try day(ends[ends.count - 1])
            var index = week.firstIndex(of: first)!
            days.insert(first)
            while week[index] != last {
                index = (index + 1) % week.count
                days.insert(week[index])
            }
        }
        return days
    }

    private static func writtenDays(_ days: Set<CalendarMatch.Weekday>) -> String {
        if days.count == week.count { return everyDay }
        var runs: [[CalendarMatch.Weekday]] = []
        for day in week where days.contains(day) {
            if let last = runs.last?.last, week.firstIndex(of: last)! + 1 == week.firstIndex(of: day)! {
                runs[runs.count - 1].append(day)
            } else {
                runs.append([day])
            }
        }
        // The week wraps: Sunday runs on into Monday, so Sunday to Thursday is sun-thu.
        if runs.count > 1, runs[0].first == .monday, runs[runs.count - 1].last == .sunday {
            let first = runs.removeFirst()
            runs[runs.count - 1] += first
        }
        return runs.map { run in
            run.count >= 3
                ? "\(abbreviation(run[0]))-\(abbreviation(run[run.count - 1]))"
                : run.map(abbreviation).joined(separator: ",")
        }.joined(separator: ",")
    }
}
