import NotificationModel
import Testing

/// Critical by permission: which app's critical notifications are critical, and what the others become.
@Suite("Critical by permission")
struct CriticalPermissionTests {
    /// The user's setting, where the app runs, and whether its critical notifications are critical.
    static let permissions: [(setting: Bool?, fromSandbox: Bool, allowed: Bool)] = [
        (nil, false, true), (nil, true, false),
        (true, false, true), (true, true, true),
        (false, false, false), (false, true, false),
    ]

    @Test(
        "host programs have it until the user turns it off; sandboxed apps once the user turns it on",
        arguments: permissions.indices)
    func permission(row: Int) {
        let (setting, fromSandbox, allowed) = Self.permissions[row]
        let settings = AppNotificationSettings(allowsCritical: setting)
        #expect(
            settings.allowsCritical(fromSandbox: fromSandbox) == allowed,
            "setting \(String(describing: setting)), sandboxed \(fromSandbox)")
    }

    /// Every level with and without the permission: the level it is delivered at.
    static let levels:
        [(NotificationInterruptionLevel, allowed: NotificationInterruptionLevel, not: NotificationInterruptionLevel)] =
            [
                (.passive, .passive, .passive), (.active, .active, .active),
                (.timeSensitive, .timeSensitive, .timeSensitive), (.critical, .critical, .timeSensitive),
            ]

    @Test("only critical depends on the permission, and becomes time-sensitive without it", arguments: levels.indices)
    func level(row: Int) {
        let (level, allowed, notAllowed) = Self.levels[row]
        #expect(level.permitted(criticalAllowed: true) == allowed)
        #expect(level.permitted(criticalAllowed: false) == notAllowed)
    }

    @Test("the table covers every level")
    func tableIsWhole() {
        #expect(Set(Self.levels.map(\.0)) == Set(NotificationInterruptionLevel.allCases))
    }

    @Test(
        "a critical notification without the permission is time-sensitive, of urgency normal, and waits where one does")
    func loweredContent() throws {
        let alarm = NotificationContent(title: "Smoke", urgency: .critical, interruptionLevel: .critical)
        #expect(alarm.permitted(criticalAllowed: true) == nil, "allowed: delivered as it is")
        let lowered = try #require(alarm.permitted(criticalAllowed: false))
        #expect(lowered.interruptionLevel == .timeSensitive)
        #expect(lowered.urgency == .normal, "a server lets urgency critical through its own do-not-disturb")
        #expect(lowered.title == "Smoke")
        #expect(!lowered.passes(.desktop, timeSensitiveAllowed: false))
        #expect(lowered.passes(.desktop, timeSensitiveAllowed: true))
    }

    @Test("an active notification of urgency critical counts as critical, so it needs the permission too")
    func criticalUrgency() throws {
        let urgent = NotificationContent(title: "Battery at 3%", urgency: .critical)
        let lowered = try #require(urgent.permitted(criticalAllowed: false))
        #expect(lowered.levelForDoNotDisturb == .timeSensitive)
        #expect(lowered.urgency == .normal)
        let quiet = NotificationContent(title: "Sync done", urgency: .low, interruptionLevel: .passive)
        #expect(quiet.permitted(criticalAllowed: false) == nil, "other levels stay as they are")
    }
}
