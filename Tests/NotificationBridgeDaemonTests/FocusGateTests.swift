import Foundation
import NotificationModel
import Testing

@testable import NotificationBridgeDaemon

/// The one do-not-disturb gate: the desktop's own switch and the focus mode that is on, each of which may hold a
/// notification back.
@Suite("The do-not-disturb gate with focus modes")
struct FocusGateTests {
    static func candidate(
        _ app: String, thread: String? = nil, _ level: NotificationInterruptionLevel = .active,
        timeSensitiveAllowed: Bool = false
    ) -> FocusBreakthrough.Candidate {
        FocusBreakthroughTests.candidate(app, thread: thread, level, timeSensitiveAllowed: timeSensitiveAllowed)
    }

    /// "sleep", on by hand, letting the Doorbell and Ann's conversation in Chat through.
    static func sleep() throws -> FocusState.Active {
        FocusState.Active(
            mode: try FocusMode(name: "sleep", breakthrough: FocusBreakthroughTests.sleep), cause: .manual, until: nil)
    }

    static let doorbell = candidate("org.example.Doorbell")
    static let ann = candidate("org.example.Chat", thread: "ann")
    static let mail = candidate("org.example.Mail")
    static let alarm = candidate("org.example.Alarm", .critical)
    static let meeting = candidate("org.example.Calendar", .timeSensitive, timeSensitiveAllowed: true)

    /// A notification, and whether it waits with: nothing on, the desktop's switch alone, sleep alone, both.
    static let cases: [(String, FocusBreakthrough.Candidate, [Bool])] = [
        ("an app sleep names", doorbell, [false, true, false, true]),
        ("a thread sleep names", ann, [false, true, false, true]),
        ("an app no one names", mail, [false, true, true, true]),
        ("critical, allowed the app", alarm, [false, false, false, false]),
        ("time-sensitive, allowed the app", meeting, [false, false, false, false]),
    ]

    @Test("a notification waits when the desktop's switch or the mode on holds it back", arguments: cases)
    func waits(_ name: String, _ candidate: FocusBreakthrough.Candidate, _ expected: [Bool]) throws {
        let sleep = try Self.sleep()
        let gates = [
            FocusGate(desktopIsOn: false, focus: nil), FocusGate(desktopIsOn: true, focus: nil),
            FocusGate(desktopIsOn: false, focus: sleep), FocusGate(desktopIsOn: true, focus: sleep),
        ]
        #expect(gates.map { $0.holdsBack(candidate) } == expected, "\(name)")
    }

    @Test("a mode that lets no time-sensitive notification through holds even those of the apps allowed them")
    func timeSensitiveOff() throws {
        var breakthrough = FocusBreakthroughTests.sleep
        breakthrough.timeSensitive = false
        let strict = FocusState.Active(
            mode: try FocusMode(name: "strict", breakthrough: breakthrough), cause: .scheduled, until: nil)
        #expect(FocusGate(desktopIsOn: false, focus: strict).holdsBack(Self.meeting))
        #expect(!FocusGate(desktopIsOn: false, focus: strict).holdsBack(Self.alarm), "critical ones still pass")
    }
}
