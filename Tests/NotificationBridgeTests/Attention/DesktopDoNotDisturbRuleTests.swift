import NotificationModel
import Testing

@testable import NotificationBridge

/// What counts as the desktop's do-not-disturb where it is a convention (mako's modes), and what passes it.
@Suite("Desktop do-not-disturb rules")
struct DesktopDoNotDisturbRuleTests {
    @Test(
        "a mako mode named do-not-disturb or dnd, in any case, turns the switch on; other modes do not",
        arguments: [
            (["default"], false), ([], false), (["dnd"], true), (["DND"], true), (["work", "do-not-disturb"], true),
            (["Do_Not_Disturb"], true), (["dnd-later"], false),
        ])
    func makoModes(_ modes: [String], _ isOn: Bool) {
        #expect(DoNotDisturbReader.isMakoDoNotDisturb(modes) == isOn)
    }

    @Test(
        "switch on: urgency critical passes, time-sensitive where allowed for its app; switch off: every one does",
        arguments: [false, true])
    func whatPasses(timeSensitiveAllowed allowed: Bool) {
        let on = DesktopDoNotDisturb(source: .dunst, isOn: true)
        let off = DesktopDoNotDisturb(source: .dunst, isOn: false)
        for urgency in [NotificationUrgency.low, .normal] {
            #expect(on.holdsBack(NotificationContent(title: "t", urgency: urgency), timeSensitiveAllowed: allowed))
            #expect(!off.holdsBack(NotificationContent(title: "t", urgency: urgency), timeSensitiveAllowed: allowed))
        }
        #expect(!on.holdsBack(NotificationContent(title: "t", urgency: .critical), timeSensitiveAllowed: allowed))
        var timeSensitive = NotificationContent(title: "t")
        timeSensitive.interruptionLevel = .timeSensitive
        #expect(on.holdsBack(timeSensitive, timeSensitiveAllowed: allowed) == !allowed)
        #expect(!DesktopDoNotDisturb.unknown.holdsBack(NotificationContent(title: "t"), timeSensitiveAllowed: allowed))
    }
}
