/// The line that says how many notifications a thread holds, such as "3 new messages from Ann": the counterpart of
/// `UNNotificationCategory.categorySummaryFormat` filled in with the thread's `summaryArgumentCount`s and
/// `summaryArgument`s.
///
/// A format holds `%u` for the count, `%@` for the arguments and `%%` for a percent sign; positional forms such as
/// `%1$u` and `%2$@`, which translations use to reorder them, are read as the same two. Anything else after a `%` is
/// refused by ``check(_:)``.
public enum ThreadSummary {
    /// The format used where the category has none and no notification of the thread gives an argument.
    public static let defaultFormat = "%u notifications"
    /// The format used where the category has none and a notification of the thread gives an argument.
    public static let defaultFormatWithArgument = "%u notifications from %@"

    /// The summary of a thread.
    ///
    /// - Parameters:
    ///   - format: the category's ``NotificationCategory/summaryFormat``, or `nil` for the default.
    ///   - count: the sum of the thread's ``NotificationContent/summaryArgumentCount``s.
    ///   - arguments: the thread's ``NotificationContent/summaryArgument``s, newest first; repeats are shown once.
    /// - Returns: the summary within ``NotificationLimits/maxBodyBytes``, as a body is: a format that repeats `%@`
    ///   many times, filled with long arguments, is cut with an ellipsis (``NotificationLimits/truncated(_:toBytes:)``)
    ///   as it is built, never built whole.
    public static func text(format: String?, count: Int, arguments: [String]) -> String {
        let limit = NotificationLimits.maxBodyBytes
        var distinct: [String] = []
        for argument in arguments where !distinct.contains(argument) { distinct.append(argument) }
        let joined = distinct.joined(separator: ", ")
        let format = format ?? (distinct.isEmpty ? defaultFormat : defaultFormatWithArgument)
        var text = ""
        var rest = Substring(format)
        while let percent = rest.firstIndex(of: "%") {
            text += rest[..<percent]
            rest = rest[rest.index(after: percent)...]
            // A position (digits and `$`) chooses nothing here: there are only two values, told apart by their type.
            let position = rest.prefix { $0.isASCII && $0.isNumber }
            if !position.isEmpty, rest.dropFirst(position.count).first == "$" {
                rest = rest.dropFirst(position.count + 1)
            }
            switch rest.first {
            case "u": text += String(count)
            case "@": text += joined
            case "%": text += "%"
            default:
                text += "%"
                continue
            }
            rest = rest.dropFirst()
            if text.utf8.count > limit { return NotificationLimits.truncated(text, toBytes: limit) }
        }
        return NotificationLimits.truncated(text + rest, toBytes: limit)
    }

    /// Says what is wrong with a summary format, or `nil` when it is valid.
    public static func check(_ format: String) -> String? {
        var rest = Substring(format)
        while let percent = rest.firstIndex(of: "%") {
            rest = rest[rest.index(after: percent)...]
            let position = rest.prefix { $0.isASCII && $0.isNumber }
            if !position.isEmpty, rest.dropFirst(position.count).first == "$" {
                rest = rest.dropFirst(position.count + 1)
            }
            guard let specifier = rest.first, "u@%".contains(specifier) else {
                return "has a '%' followed by \(rest.first.map { "'\($0)'" } ?? "nothing"); use %u for the count, "
                    + "%@ for the summary argument and %% for a percent sign"
            }
            rest = rest.dropFirst()
        }
        return nil
    }
}
