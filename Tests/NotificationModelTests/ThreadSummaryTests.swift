import NotificationModel
import Testing

/// A thread's summary line, as the user reads it under the newest notification of the thread.
@Suite("Thread summaries")
struct ThreadSummaryTests {
    @Test("the category's format gets the count and the arguments, each argument once, newest first")
    func categoryFormat() {
        let text = ThreadSummary.text(
            format: "%u new messages from %@", count: 3, arguments: ["Ann", "Bob", "Ann"])
        #expect(text == "3 new messages from Ann, Bob")
    }

    @Test("positional forms and a percent sign, as translations write them")
    func positionalForms() {
        #expect(ThreadSummary.text(format: "%2$@: %1$u (100%%)", count: 20, arguments: ["Ann"]) == "Ann: 20 (100%)")
    }

    @Test("without a format: a count, and whom it is from when the notifications say")
    func defaults() {
        #expect(ThreadSummary.text(format: nil, count: 20, arguments: []) == "20 notifications")
        #expect(ThreadSummary.text(format: nil, count: 2, arguments: ["Ann"]) == "2 notifications from Ann")
    }

    @Test("a format with another conversion is refused, saying which ones are allowed")
    func check() {
        #expect(ThreadSummary.check("%u new from %@") == nil)
        #expect(ThreadSummary.check("%d new")?.contains("%u for the count") == true)
        #expect(ThreadSummary.check("50%")?.contains("followed by nothing") == true)
    }
}

extension ThreadSummaryTests {
    @Test("a format of 512 %@ filled with 64 arguments of 1 KB stays within the body limit, cut with an ellipsis")
    func boundedAsItIsBuilt() {
        let format = String(repeating: "%@", count: 512)
        #expect(format.utf8.count == NotificationLimits.maxTitleBytes, "the longest format a category may have")
        let arguments = (0..<64).map { "\($0 / 10)\($0 % 10)" + String(repeating: "é", count: 511) }
        #expect(arguments.allSatisfy { $0.utf8.count == 1024 })
        let text = ThreadSummary.text(format: format, count: 64, arguments: arguments)
        #expect(text.utf8.count <= NotificationLimits.maxBodyBytes)
        #expect(text.utf8.count > NotificationLimits.maxBodyBytes - 8, "it is cut at the limit, not short of it")
        #expect(text.hasSuffix(NotificationLimits.ellipsis))
        #expect(text.dropLast().allSatisfy { $0 != "\u{FFFD}" })
    }

    @Test(
        "a text is cut between characters, with an ellipsis, to fit its limit",
        arguments: [
            ("short", 5, "short"), ("longer", 5, "lo…"), ("ééé", 5, "é…"), ("ééé", 4, "…"), ("👍🏽👍🏽", 10, "…"),
            ("👍🏽👍🏽", 11, "👍🏽…"), ("ab", 1, ""), ("", 0, ""),
        ])
    func truncation(text: String, limit: Int, expected: String) {
        #expect(NotificationLimits.truncated(text, toBytes: limit) == expected)
    }
}
