import DBusCore
import DBusTestSupport
import NotificationModel
import NotificationServerKit
import Testing

@testable import NotificationBridge

/// What each interruption level becomes at each known server: the urgency, sound and timeout its `Notify` carries.
@Suite struct InterruptionLevelWireTests {
    /// What a server receives for one level of a notification that asks for a sound and leaves urgency and timeout
    /// to the defaults.
    struct Expected: Sendable, CustomStringConvertible {
        var urgency: UInt8
        var silent: Bool
        var timeout: Int32

        var description: String { "urgency \(urgency), \(silent ? "silent" : "with sound"), timeout \(timeout)" }
    }

    /// The servers that keep a low-urgency notification in their list without a banner.
    static let keepsQuietList: Set<String> = ["gnome-shell", "gnome-shell-43"]

    /// The table, written out: passive is low and silent where a quiet list exists, else silent and brief (4 s);
    /// active and time-sensitive are as the app asked; critical is urgency critical and stays.
    static func expected(_ level: NotificationInterruptionLevel, preset: String) -> Expected {
        switch level {
        case .passive where keepsQuietList.contains(preset): Expected(urgency: 0, silent: true, timeout: -1)
        case .passive: Expected(urgency: 1, silent: true, timeout: 4000)
        case .active, .timeSensitive: Expected(urgency: 1, silent: false, timeout: -1)
        case .critical: Expected(urgency: 2, silent: false, timeout: 0)
        }
    }

    @Test(
        "each level at each server profile: urgency, sound and timeout sent",
        arguments: NotificationServerProfile.presets.map(\.name))
    func levelsAtServer(preset: String) async throws {
        let profile = try #require(NotificationServerProfile.preset(named: preset))
        try await BridgeFixture.with(profile) { fixture in
            for level in NotificationInterruptionLevel.allCases {
                // A title per level: Plasma refuses a repeat of the same notification within a second.
                var content = NotificationContent(title: "Ann (\(level.name))", body: "Lunch?")
                content.sound = .named("message-new-instant")
                content.interruptionLevel = level
                let (_, served) = try await fixture.post(content)
                let want = Self.expected(level, preset: preset)
                #expect(
                    served.hints["urgency"]?.unwrappedVariant == .byte(want.urgency), "\(preset) \(level.name): \(want)"
                )
                #expect(served.expireTimeout == want.timeout, "\(preset) \(level.name): \(want)")
                if want.silent {
                    #expect(
                        served.hints["suppress-sound"]?.unwrappedVariant == .boolean(true), "\(preset) \(level.name)")
                    #expect(served.soundName == nil, "\(preset) \(level.name): no sound hint")
                } else {
                    #expect(served.hints["suppress-sound"]?.unwrappedVariant == nil, "\(preset) \(level.name)")
                    #expect(served.soundName == "message-new-instant", "\(preset) \(level.name)")
                }
            }
        }
    }

    static let gnome = NotifyEncoderTests.gnome
    static let dunst = NotifyEncoderTests.dunst

    @Test("an urgency or a timeout the app set stays as set; critical is always urgency critical")
    func appChoicesStay() {
        func sent(_ content: NotificationContent, _ server: NotificationServerInfo) -> NotifyRequest {
            NotifyEncoder(server: server, promptAvailable: false).encode(content, category: nil).request
        }
        let passiveUrgent = NotificationContent(title: "t", urgency: .critical, interruptionLevel: .passive)
        #expect(sent(passiveUrgent, Self.gnome).hints["urgency"] == .byte(2))
        #expect(sent(passiveUrgent, Self.gnome).hints["suppress-sound"] == .boolean(true))
        let activeLow = NotificationContent(title: "t", urgency: .low)
        #expect(sent(activeLow, Self.dunst).hints["urgency"] == .byte(0))
        let passiveTimed = NotificationContent(
            title: "t", interruptionLevel: .passive, timeout: .milliseconds(9000))
        #expect(sent(passiveTimed, Self.dunst).expireTimeout == 9000)
        let criticalTimed = NotificationContent(
            title: "t", interruptionLevel: .critical, timeout: .milliseconds(7000))
        #expect(sent(criticalTimed, Self.dunst).expireTimeout == 7000)
        #expect(sent(criticalTimed, Self.dunst).hints["urgency"] == .byte(2))
    }

    @Test("the portal's priority follows the level where the app left the urgency at normal")
    func portalPriority() {
        #expect(PortalEncoder.priority(of: NotificationContent(title: "t", interruptionLevel: .passive)) == "low")
        #expect(PortalEncoder.priority(of: NotificationContent(title: "t")) == "normal")
        #expect(
            PortalEncoder.priority(of: NotificationContent(title: "t", interruptionLevel: .timeSensitive)) == "high")
        #expect(PortalEncoder.priority(of: NotificationContent(title: "t", interruptionLevel: .critical)) == "urgent")
        #expect(
            PortalEncoder.priority(
                of: NotificationContent(title: "t", urgency: .low, interruptionLevel: .timeSensitive))
                == "low")
    }

    @Test("doctor's notes say where passive notifications go quietly")
    func quirkNote() {
        #expect(Self.gnome.quirkNotes.contains { $0.contains("passive ones") })
        #expect(!Self.dunst.quirkNotes.contains { $0.contains("passive ones") })
    }
}
