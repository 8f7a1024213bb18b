import ArgumentParser
import DBusCore
import NotificationModel

/// A calendar spec of `--every` and `--next`: days, then a time, such as `mon-fri 09:00`, `day 1 08:00`,
/// `dec 24 18:00` or `:15`; it becomes the `calendar` dictionary of `Post`.
struct CalendarSpec {
    var match = CalendarMatch()

    static let weekdayNames: [(String, CalendarMatch.Weekday)] = [
        ("sun", .sunday), ("mon", .monday), ("tue", .tuesday), ("wed", .wednesday), ("thu", .thursday),
        ("fri", .friday), ("sat", .saturday),
    ]
    static let monthNames = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// Reads a spec.
    ///
    /// - Parameter option: the option's name, for messages.
    /// - Throws: `ValidationError` naming the part that is wrong and the forms accepted.
    init(parsing text: String, option: String) throws {
        let help = "e.g. \(option) 'mon-fri 09:00', 'sat,sun 10:30', 'day 1 08:00', 'dec 24 18:00' or ':15'"
        var words = text.lowercased().split(separator: " ").map(String.init)
        guard let last = words.last, last.contains(":") else {
            throw ValidationError("\(option) '\(text)' has no time at the end; \(help)")
        }
        words.removeLast()
        try readTime(last, option: option, help: help)
        if words.first == "day" {
            guard words.count == 2, let day = Int(words[1]), (1...31).contains(day) else {
                throw ValidationError("\(option) '\(text)': 'day' takes a day of the month, 1 to 31; \(help)")
            }
            match.day = day
        } else if words.count == 2, let month = Self.month(words[0]) {
            guard let day = Int(words[1]), (1...31).contains(day) else {
                throw ValidationError("\(option) '\(text)': '\(words[0])' takes a day of the month, 1 to 31; \(help)")
            }
            (match.month, match.day) = (month, day)
        } else if words.count == 1 {
            match.weekdays = try Self.weekdays(words[0], option: option, help: help)
        } else if words.count > 1 {
            throw ValidationError("\(option) '\(text)': put the days in one word, e.g. 'mon,wed,fri'; \(help)")
        }
    }

    private mutating func readTime(_ word: String, option: String, help: String) throws {
        let parts = word.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        let problem = ValidationError("\(option): '\(word)' is not a time; use HH:MM, HH:MM:SS or :MM; \(help)")
        if parts.count == 2, parts[0].isEmpty {
            guard let minute = Int(parts[1]), (0...59).contains(minute) else { throw problem }
            match.minute = minute
            return
        }
        guard (2...3).contains(parts.count), let hour = Int(parts[0]), (0...23).contains(hour),
            let minute = Int(parts[1]), (0...59).contains(minute)
        else { throw problem }
        (match.hour, match.minute) = (hour, minute)
        if parts.count == 3 {
            guard let second = Int(parts[2]), (0...59).contains(second) else { throw problem }
            match.second = second
        }
    }

    private static func month(_ word: String) -> Int? {
        monthNames.firstIndex { word.hasPrefix($0) && $0.count >= 3 }.map { $0 + 1 }
    }

    private static func weekday(_ word: String) -> CalendarMatch.Weekday? {
        guard word.count >= 3 else { return nil }
        return weekdayNames.first { word.hasPrefix($0.0) && $0.1.name.hasPrefix(word) }?.1
    }

    /// `mon-fri`, `mon,wed,fri`, `sat-sun`, `daily`.
    private static func weekdays(_ word: String, option: String, help: String) throws -> Set<CalendarMatch.Weekday>? {
        if word == "daily" || word == "*" { return nil }
        var days = Set<CalendarMatch.Weekday>()
        for item in word.split(separator: ",").map(String.init) {
            let ends = item.split(separator: "-").map(String.init)
            guard (1...2).contains(ends.count), let first = weekday(ends[0]), let last = weekday(ends.last!) else {
                throw ValidationError(
                    "\(option): '\(item)' is not a day or a range of days; use mon … sun (or full names), "
                        + "ranges such as mon-fri, lists such as mon,wed,fri; \(help)")
            }
            // A range may wrap past Saturday: fri-mon is Friday to Monday.
            var day = first.rawValue
            while true {
                days.insert(CalendarMatch.Weekday(rawValue: day)!)
                if day == last.rawValue { break }
                day = day % 7 + 1
            }
        }
        return days
    }
}
