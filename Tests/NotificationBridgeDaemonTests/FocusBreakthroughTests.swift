import NotificationModel
import Testing

@testable import NotificationBridgeDaemon

/// Who breaks through a focus mode: by app, by thread, by level; everything else waits.
@Suite("Who breaks through a focus mode")
struct FocusBreakthroughTests {
    typealias Candidate = FocusBreakthrough.Candidate

    /// A "sleep" mode that lets Ann's conversation in Chat and every notification of the Doorbell through.
    static let sleep = FocusBreakthrough(
        apps: ["org.example.Doorbell"], threads: [.init(app: "org.example.Chat", id: "ann")], timeSensitive: true)

    static func candidate(
        _ app: String, thread: String? = nil, _ level: NotificationInterruptionLevel = .active,
        timeSensitiveAllowed: Bool = false
    ) -> Candidate {
        Candidate(app: app, thread: thread, level: level, timeSensitiveAllowed: timeSensitiveAllowed)
    }

    /// A notification, and the rule that lets it through sleep (`nil`: it waits).
    static let cases: [(String, Candidate, FocusBreakthrough.Rule?)] = [
        ("the app named", candidate("org.example.Doorbell", .passive), .app),
        ("Ann's thread", candidate("org.example.Chat", thread: "ann"), .thread),
        ("Bob's thread of the same app", candidate("org.example.Chat", thread: "bob"), nil),
        ("a thread of that id in another app", candidate("org.example.Mail", thread: "ann"), nil),
        ("an app not named", candidate("org.example.Mail"), nil),
        (
            "time-sensitive, allowed for the app",
            candidate("org.example.Mail", .timeSensitive, timeSensitiveAllowed: true), .level
        ),
        ("time-sensitive, not allowed for the app", candidate("org.example.Mail", .timeSensitive), nil),
        ("critical (the user allowed it)", candidate("org.example.Mail", .critical), .level),
    ]

    @Test("each rule lets through what it names, and nothing else", arguments: cases.indices)
    func rules(row: Int) {
        let (what, candidate, rule) = Self.cases[row]
        #expect(Self.sleep.rule(letting: candidate) == rule, "\(what)")
    }

    @Test("a mode that turns time-sensitive off holds them even from the apps allowed them; critical still passes")
    func timeSensitiveOff() {
        var strict = Self.sleep
        strict.timeSensitive = false
        #expect(
            strict.rule(letting: Self.candidate("org.example.Mail", .timeSensitive, timeSensitiveAllowed: true)) == nil)
        #expect(strict.rule(letting: Self.candidate("org.example.Mail", .critical)) == .level)
    }

    @Test(
        "the desktop's switch as a mode lets through what the one level rule does",
        arguments: NotificationInterruptionLevel.allCases, [false, true])
    func desktopIsTheLevelRule(level: NotificationInterruptionLevel, allowed: Bool) {
        let candidate = Self.candidate("org.example.Mail", level, timeSensitiveAllowed: allowed)
        #expect(
            (FocusBreakthrough.desktop.rule(letting: candidate) != nil)
                == level.passes(.desktop, timeSensitiveAllowed: allowed))
    }
}
