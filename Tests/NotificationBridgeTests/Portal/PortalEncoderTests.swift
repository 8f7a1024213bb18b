import DBusCore
import NotificationModel
import Testing

@testable import NotificationBridge

/// The exact `AddNotification` dictionaries built for the portal's versions.
@Suite struct PortalEncoderTests {
    static let v1 = PortalInfo(version: 1)
    static let v2 = PortalInfo(
        version: 2,
        supportedOptions: [
            PortalWire.Option.buttonPurpose: .strings([PortalWire.replyWithText]),
            PortalWire.Option.category: .strings(["im.message"]),
        ])
    static let message = NotifyEncoderTests.message

    /// A portal, and the version whose keys reach the desktop through it.
    static let deliveredCases: [(PortalInfo, UInt32)] = [
        (PortalInfo(version: 1), 1),
        (PortalInfo(version: 2), 1),
        (v2, 2),
        (PortalInfo(version: 2, backendVersion: 0), 1),
        (PortalInfo(version: 2, supportedOptions: v2.supportedOptions, backendVersion: 0), 1),
        (PortalInfo(version: 2, backendVersion: 2), 2),
        (PortalInfo(version: 2, backendVersion: 3), 2),
    ]

    static func content() -> NotificationContent {
        var content = NotifyEncoderTests.content()
        content.userInfo = ["conversation": .string("t-42")]
        return content
    }

    /// The buttons of an encoded notification: (label, action, target, purpose).
    static func buttons(_ encoded: PortalEncoder.Encoded) -> [(String, String, PortalTarget?, String?)] {
        guard case .array(_, let buttons)? = encoded.notification[PortalWire.Key.buttons] else { return [] }
        return buttons.compactMap(\.stringKeyedEntries).map { button in
            (
                button[PortalWire.Button.label]?.unwrappedVariant.stringValue ?? "",
                button[PortalWire.Button.action]?.unwrappedVariant.stringValue ?? "",
                button[PortalWire.Button.target].flatMap(PortalTarget.init),
                button[PortalWire.Button.purpose]?.unwrappedVariant.stringValue
            )
        }
    }

    @Test(
        "the version whose keys reach the desktop: the backend's where it can be read, else what SupportedOptions shows",
        arguments: deliveredCases)
    func deliveredVersion(portal: PortalInfo, delivered: UInt32) {
        #expect(portal.deliveredVersion == delivered)
        #expect(portal.serverInfo.version == "\(delivered)")
    }

    /// What `doctor` tells a sandboxed app its notifications lose: version 2's keys wherever only version 1's are
    /// delivered (Debian 12's portal, Debian 13's with its version-0 backend), the reply field wherever the desktop
    /// lists no `im.reply-with-text`, nothing where a version-2 backend lists it.
    @Test("what does not reach the desktop: version 2's keys below a delivered version 2, the reply field without it")
    func notDelivered() {
        let version2Keys = ["sounds", "display hints (transient, persistent)", "categories", "markup in the body"]
        let replyField = "a reply field in the notification"
        for portal in [PortalInfo(version: 1), PortalInfo(version: 2, backendVersion: 0), PortalInfo(version: 2)] {
            #expect(portal.notDelivered == version2Keys + [replyField], "\(portal)")
        }
        #expect(Self.v2.notDelivered == [])
        #expect(PortalInfo(version: 2, backendVersion: 2).notDelivered == [replyField])
    }

    @Test("an advertised version 2 that the backend does not take gets no version-2 key, and no reply purpose")
    func advertisedVersion2WithoutBackend() {
        var content = Self.content()
        content.sound = .none
        content.isTransient = true
        let encoded = PortalEncoder(portal: PortalInfo(version: 2), promptAvailable: false).encode(
            content, category: Self.message, serverCategory: "im.received")
        for key in [PortalWire.Key.sound, PortalWire.Key.displayHint, PortalWire.Key.category] {
            #expect(encoded.notification[key] == nil, "\(key) is dropped by a version-1 backend")
        }
        #expect(Self.buttons(encoded).allSatisfy { $0.3 == nil }, "no button purpose")
        #expect(encoded.notification[PortalWire.Key.body] == .string(content.body))
    }

    @Test func version1GetsTitleBodyPriorityAndTheDefaultActionWithItsTarget() {
        let encoded = PortalEncoder(portal: Self.v1, promptAvailable: false).encode(Self.content(), category: nil)
        #expect(encoded.notification[PortalWire.Key.title] == .string("Ann"))
        #expect(encoded.notification[PortalWire.Key.body] == .string("Lunch?"))
        #expect(encoded.notification[PortalWire.Key.priority] == .string("normal"))
        #expect(encoded.notification[PortalWire.Key.defaultAction] == .string("default"))
        let target = encoded.notification[PortalWire.Key.defaultActionTarget].flatMap(PortalTarget.init)
        #expect(target == PortalTarget(actionID: "default", categoryID: "message", userInfo: ["conversation": "t-42"]))
        // Version 2 keys are not sent to a version 1 portal.
        #expect(encoded.notification[PortalWire.Key.sound] == nil)
    }

    @Test func anAppThatExportsItsActionsGetsAppActionsAndTheNotificationIDInEachTarget() {
        var encoder = PortalEncoder(portal: Self.v1, promptAvailable: false)
        encoder.activatesApp = true
        var content = Self.content()
        content.categoryID = nil
        content.actions = [NotifyEncoderTests.markRead, NotifyEncoderTests.delete]
        let encoded = encoder.encode(content, category: nil, id: "4f2a")
        #expect(encoded.notification[PortalWire.Key.defaultAction] == .string("app.default"))
        let target = encoded.notification[PortalWire.Key.defaultActionTarget].flatMap(PortalTarget.init)
        #expect(target?.notificationID == "4f2a" && target?.actionID == "default")
        let buttons = Self.buttons(encoded)
        #expect(buttons.map(\.1).allSatisfy { $0.hasPrefix("app.") }, "\(buttons.map(\.1))")
        #expect(buttons.map { $0.2?.notificationID } == buttons.map { _ in "4f2a" })
        // What the portal activates comes back without `app.`: the encoded names are the action ids.
        #expect(Set(encoded.actionsByName.keys) == Set(buttons.map { String($0.1.dropFirst(4)) }))
        // Without it, nothing changes: no prefix, no id.
        let plain = PortalEncoder(portal: Self.v1, promptAvailable: false).encode(content, category: nil, id: "4f2a")
        #expect(Self.buttons(plain).allSatisfy { !$0.1.hasPrefix("app.") && $0.2?.notificationID == nil })
    }

    @Test func actionsAreButtonsWithTheActionIDAndUserInfoInTheTarget() {
        var content = Self.content()
        content.categoryID = nil
        content.actions = [NotifyEncoderTests.markRead, NotifyEncoderTests.delete]
        let encoded = PortalEncoder(portal: Self.v1, promptAvailable: false).encode(content, category: nil)
        let buttons = Self.buttons(encoded)
        // Destructive first, as on the freedesktop path; no action name is an exported `app.` action.
        #expect(buttons.map(\.0) == ["Delete", "Mark as Read"])
        #expect(buttons.map(\.1) == ["delete", "read"])
        #expect(buttons[0].2 == PortalTarget(actionID: "delete", categoryID: nil, userInfo: ["conversation": "t-42"]))
    }

    @Test func aCategoryOfMoreThanThreeActionsShowsItsMinimalSet() {
        let encoder = PortalEncoder(portal: Self.v1, promptAvailable: true)
        let encoded = encoder.encode(Self.content(), category: Self.message)
        #expect(Self.buttons(encoded).map(\.1) == ["delete", "reply"])
    }

    @Test func version1TextInputIsThePromptButtonOrTheFallback() {
        let withPrompt = PortalEncoder(portal: Self.v1, promptAvailable: true)
        #expect(withPrompt.textInputRendering(for: NotifyEncoderTests.reply) == .prompt)
        let encoded = withPrompt.encode(Self.content(), category: Self.message)
        #expect(Self.buttons(encoded).first { $0.1 == "reply" }?.3 == nil)
        let without = PortalEncoder(portal: Self.v1, promptAvailable: false)
        #expect(without.textInputRendering(for: NotifyEncoderTests.reply) == .buttonWithoutText)
        var hidden = NotifyEncoderTests.reply
        hidden.textInputFallback = .hide
        #expect(without.textInputRendering(for: hidden) == .hidden)
    }

    @Test func version2TextInputIsAReplyButton() {
        let encoder = PortalEncoder(portal: Self.v2, promptAvailable: true)
        let encoded = encoder.encode(Self.content(), category: Self.message)
        #expect(Self.buttons(encoded).first { $0.1 == "reply" }?.3 == "im.reply-with-text")
        #expect(encoded.textInput["reply"] == .inlineReply)
    }

    @Test func version2MapsSoundDisplayHintsAndAListedCategory() {
        var content = Self.content()
        content.sound = .none
        content.isTransient = true
        content.urgency = .critical
        let encoder = PortalEncoder(portal: Self.v2, promptAvailable: false)
        let encoded = encoder.encode(content, category: nil, serverCategory: "im.received")
        #expect(encoded.notification[PortalWire.Key.sound] == .string("silent"))
        #expect(encoded.notification[PortalWire.Key.displayHint] == .strings([PortalWire.transientHint]))
        #expect(encoded.notification[PortalWire.Key.category] == .string("im.message"))
        #expect(encoded.notification[PortalWire.Key.priority] == .string("urgent"))
        // A category the desktop does not list is left out; the bridge's own category id is never sent.
        let unlisted = encoder.encode(content, category: nil, serverCategory: "email.arrived")
        #expect(unlisted.notification[PortalWire.Key.category] == nil)
    }

    @Test func anIconNameIsAThemedIcon() {
        var content = Self.content()
        content.icon = "mail-unread"
        let encoded = PortalEncoder(portal: Self.v1, promptAvailable: false).encode(content, category: nil)
        let themed = DBusValue.structure([.string("themed"), .variant(.strings(["mail-unread"]))])
        #expect(encoded.notification[PortalWire.Key.icon] == themed)
    }
}
