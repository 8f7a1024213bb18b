import NotificationBridgeAPI
import Testing

@testable import NotificationBridgeCommands

/// The line `doctor` gives the focus mode that is on.
@Suite("doctor's focus mode line")
struct DoctorFocusLineTests {
    static let cases: [(ActiveFocusState, String)] = [
        (.none, "none"),
        (ActiveFocusState(name: "work", cause: "manual", until: nil), "work, on by hand, until turned off"),
        (
            ActiveFocusState(name: "sleep", cause: "scheduled", until: 1_767_250_800),
            "sleep, on by its schedule, until 2026-01-01T07:00:00Z"
        ),
    ]

    @Test("says which mode is on, how it came on, and until when", arguments: cases)
    func line(_ focus: ActiveFocusState, _ expected: String) {
        #expect(DoctorReport.describe(focus) == expected)
    }
}
