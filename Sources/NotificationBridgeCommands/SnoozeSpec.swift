import ArgumentParser
import NotificationModel

/// `--snooze 10m,1h`: the snooze intervals a category or notification offers, as the command line writes them.
enum SnoozeSpec {
    /// How the option is written, for help texts and errors.
    static let form = "10m,1h (d, h, m, s; 'none' for no snooze)"

    /// Reads the option's value: intervals separated by commas, or `none` for an empty list.
    ///
    /// - Throws: `ValidationError` saying which interval is wrong and how to write it.
    static func parse(_ text: String, option: String = "--snooze") throws -> [SnoozeInterval] {
        if text == "none" { return [] }
        var intervals: [SnoozeInterval] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let interval = SnoozeInterval(text: String(part)) else {
                throw ValidationError(
                    "\(option) '\(part)' is not an interval; write numbers with d, h, m or s, e.g. \(form)")
            }
            intervals.append(interval)
        }
        do throws(NotificationValidationError) {
            try SnoozeInterval.validate(intervals, field: option)
        } catch {
            throw ValidationError(message(error, option: option))
        }
        return intervals
    }

    private static func message(_ error: NotificationValidationError, option: String) -> String {
        switch error {
        case .tooManySnoozeIntervals(_, let count, let limit):
            "\(option) lists \(count) intervals; at most \(limit) are allowed, keep the most useful"
        case .invalidSnoozeInterval(_, let seconds, _):
            "\(option): \(SnoozeInterval(seconds: seconds).text) is not a snooze interval; use from 1s to 7d"
        case .duplicateSnoozeInterval(_, let seconds):
            "\(option) lists \(SnoozeInterval(seconds: seconds).text) twice; list each interval once"
        default:
            error.description
        }
    }
}
