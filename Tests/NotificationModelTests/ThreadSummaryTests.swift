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
