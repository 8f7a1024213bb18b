import Foundation
import NotificationModel
import Testing

/// Interruption levels: which do-not-disturb each one passes, how they are written, and what validation refuses.
@Suite("Interruption levels")
struct InterruptionLevelTests {
    /// Every level under each switch, with the app's time-sensitive setting off and on: (passes with it off, with
    /// it on).
    static let decisions: [(NotificationInterruptionLevel, DoNotDisturbSwitch, off: Bool, on: Bool)] = [
        (.passive, .bridge, false, false), (.passive, .desktop, false, false),
        (.active, .bridge, false, false), (.active, .desktop, false, false),
        (.timeSensitive, .bridge, false, true), (.timeSensitive, .desktop, false, true),
        (.critical, .bridge, true, true), (.critical, .desktop, true, true),
    ]

    @Test(
        "passive and active wait; time-sensitive passes either switch only where allowed for the app; critical passes",
        arguments: decisions.indices)
    func decision(row: Int) {
        let (level, doNotDisturb, whenOff, whenOn) = Self.decisions[row]
        #expect(level.passes(doNotDisturb, timeSensitiveAllowed: false) == whenOff, "\(level) under \(doNotDisturb)")
        #expect(level.passes(doNotDisturb, timeSensitiveAllowed: true) == whenOn, "\(level) under \(doNotDisturb)")
    }

    @Test("the table covers every level and switch")
    func tableIsWhole() {
        let covered = Set(Self.decisions.map { "\($0.0.name) \($0.1.rawValue)" })
        #expect(covered.count == NotificationInterruptionLevel.allCases.count * DoNotDisturbSwitch.allCases.count)
    }

    @Test("an active notification with urgency critical passes as a critical one did before levels")
    func criticalUrgencyStillPasses() {
        let urgent = NotificationContent(title: "Battery at 3%", urgency: .critical)
        #expect(urgent.levelForDoNotDisturb == .critical)
        #expect(urgent.passes(.bridge, timeSensitiveAllowed: false))
        let passive = NotificationContent(title: "Sync done", urgency: .critical, interruptionLevel: .passive)
        #expect(!passive.passes(.bridge, timeSensitiveAllowed: true), "a passive one waits whatever its urgency")
        #expect(!NotificationContent(title: "Lunch?").passes(.desktop, timeSensitiveAllowed: true))
    }

    @Test("levels are written by name, active left out, and read back; an unknown name is refused")
    func coding() throws {
        #expect(NotificationContent().interruptionLevel == .active)
        for level in NotificationInterruptionLevel.allCases {
            let content = NotificationContent(title: "t", interruptionLevel: level)
            #expect(try roundTrip(content) == content)
            let json = try encodedJSON(content)
            #expect(json["interruption-level"] == (level == .active ? nil : .string(level.name)))
        }
        #expect(NotificationInterruptionLevel.timeSensitive.name == "time-sensitive")
        #expect(try decode(NotificationContent.self, from: "{}").interruptionLevel == .active)
        #expect(throws: DecodingError.self) {
            try decode(NotificationContent.self, from: #"{"interruption-level":"urgent"}"#)
        }
    }

    @Test("a critical notification may not ask for urgency low; normal and critical are fine")
    func criticalWithLowUrgency() throws {
        let low = NotificationContent(title: "t", urgency: .low, interruptionLevel: .critical)
        #expect(throws: NotificationValidationError.lowUrgencyForCriticalLevel(field: "content.urgency")) {
            try low.validate(registeredCategories: [String]())
        }
        let error = NotificationValidationError.lowUrgencyForCriticalLevel(field: "content.urgency")
        #expect(error.description.contains("leave the urgency out or make it critical"))
        for urgency in [NotificationUrgency.normal, .critical] {
            try NotificationContent(title: "t", urgency: urgency, interruptionLevel: .critical)
                .validate(registeredCategories: [String]())
        }
        try NotificationContent(title: "t", urgency: .low, interruptionLevel: .passive)
            .validate(registeredCategories: [String]())
    }
}

/// Every surface that tells users what a time-sensitive notification does says it in the rule's own words.
@Suite("The time-sensitive rule, as the documents state it")
struct TimeSensitiveWordingTests {
    /// The package's root folder.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test(
        "the README, the manual pages, docs/servers.md and the DocC state the rule the code applies",
        arguments: [
            "README.md", "man/notification-bridge.1", "man/notification-bridge-dbus.7", "docs/servers.md",
            "Sources/NotificationBridge/NotificationBridge.docc/InterruptionLevels.md",
        ])
    func documentsAgree(file: String) throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(
            text.contains(NotificationInterruptionLevel.timeSensitiveRule), "\(file) states the time-sensitive rule")
    }

    @Test("the rule in words is the rule in code: allowed, it passes either switch; not allowed, neither")
    func wordsMatchTheTable() {
        for doNotDisturb in DoNotDisturbSwitch.allCases {
            #expect(NotificationInterruptionLevel.timeSensitive.passes(doNotDisturb, timeSensitiveAllowed: true))
            #expect(!NotificationInterruptionLevel.timeSensitive.passes(doNotDisturb, timeSensitiveAllowed: false))
        }
    }
}
