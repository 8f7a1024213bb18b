import DBusCore
import NotificationModel

/// Snooze intervals as the interface writes them: an array of seconds (`ai`), e.g. `<[600, 3600]>` for ten minutes
/// and an hour, the first the one offered where the server has room for a single snooze button.
enum SnoozeWire {
    /// The key `name` holding snooze intervals, checked as the model checks them (1 second to 7 days, at most 4, no
    /// two the same).
    static func key(_ name: String, summary: String) -> BridgeKey<[SnoozeInterval]> {
        BridgeKey<[SnoozeInterval]>(
            name, types: ["ai"], summary: summary,
            decode: { value, place throws(DBusFailure) in
                guard case .array(let element, let items) = value, element == "i" else {
                    throw place.wrongType(value, expected: "ai", example: "<[600, 3600]>")
                }
                let intervals = items.compactMap { item -> SnoozeInterval? in
                    guard case .int32(let seconds) = item else { return nil }
                    return SnoozeInterval(seconds: Int(seconds))
                }
                do throws(NotificationValidationError) {
                    try SnoozeInterval.validate(intervals, field: "intervals")
                } catch {
                    throw place.invalid(problem(error))
                }
                return intervals
            },
            encode: { intervals in
                .array(element: "i", intervals.map { .int32(Int32(clamping: $0.seconds)) })
            })
    }

    /// What is wrong with the intervals, in the words of a key's message ("lists 5 intervals; …").
    private static func problem(_ error: NotificationValidationError) -> String {
        switch error {
        case .tooManySnoozeIntervals(_, let count, let limit):
            "lists \(count) intervals; at most \(limit) are allowed, keep the most useful"
        case .invalidSnoozeInterval(_, let seconds, let limit):
            "holds \(seconds); give each interval in seconds, from 1 to \(limit) (7 days)"
        case .duplicateSnoozeInterval(_, let seconds):
            "lists \(seconds) more than once; list each interval once"
        default:
            error.description
        }
    }
}
