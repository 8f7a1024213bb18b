import DBusCore
import NotificationModel
import Testing

@testable import NotificationBridge

/// How the portal's `ActionInvoked` becomes a response, with no bus.
@Suite struct PortalRouterTests {
    static let message = NotifyEncoderTests.message

    static func posted(_ portal: PortalInfo = PortalEncoderTests.v1, resident: Bool = false) -> PortalRouter {
        var content = PortalEncoderTests.content()
        content.isResident = resident
        let encoded = PortalEncoder(portal: portal, promptAvailable: true).encode(content, category: Self.message)
        var router = PortalRouter()
        router.follow(PortalNotification(id: "n1", content: content, category: Self.message, encoded: encoded))
        return router
    }

    static func signal(_ action: String, token: String? = nil, text: String? = nil) -> PortalSignal {
        var parameter: [DBusValue] = [PortalTarget(actionID: action, categoryID: "message", userInfo: [:]).value]
        if let token { parameter.append(.vardict([PortalWire.activationToken: .string(token)])) }
        if let text { parameter.append(.string(text)) }
        return PortalSignal(id: "n1", action: action, parameter: parameter)
    }

    @Test func aButtonIsItsActionAndTheNotificationIsForgotten() throws {
        var router = Self.posted()
        guard
            case .action(let notification, let action, let token)? = router.handle(
                Self.signal("delete"), categories: [:])
        else { Issue.record("no action"); return }
        #expect(notification.id == "n1")
        #expect(action?.id == "delete")
        #expect(token == nil)
        #expect(router.notification(id: "n1") == nil)
    }

    @Test func aResidentNotificationStaysAfterAnAction() {
        var router = Self.posted(resident: true)
        _ = router.handle(Self.signal("delete"), categories: [:])
        #expect(router.notification(id: "n1") != nil)
    }

    @Test func theDefaultActionIsABodyClick() {
        var router = Self.posted()
        guard case .action(_, let action, _)? = router.handle(Self.signal("default"), categories: [:]) else {
            Issue.record("no action"); return
        }
        #expect(action == nil)
    }

    @Test func version2CarriesTheTokenAndTheTypedText() {
        var router = Self.posted(PortalEncoderTests.v2)
        guard
            case .reply(_, let action, let text, let token)? = router.handle(
                Self.signal("reply", token: "tok-1", text: "on my way"), categories: [:])
        else { Issue.record("no reply"); return }
        #expect(action.id == "reply")
        #expect(text == "on my way")
        #expect(token == "tok-1")
    }

    @Test func anActionThatWasNotShownIsIgnored() {
        var router = Self.posted()
        #expect(router.handle(Self.signal("open"), categories: [:]) == nil)
        #expect(router.handle(PortalSignal(id: "other", action: "delete", parameter: []), categories: [:]) == nil)
    }

    @Test func aNotificationOfAnEarlierRunIsReadThroughItsTarget() {
        var router = PortalRouter()
        let target = PortalTarget(actionID: "open", categoryID: "message", userInfo: ["conversation": "t-7"])
        let signal = PortalSignal(id: "old-1", action: "open", parameter: [target.value])
        guard
            case .action(let notification, let action, _)? = router.handle(
                signal, categories: ["message": Self.message])
        else { Issue.record("no action"); return }
        #expect(action?.id == "open")
        #expect(notification.content.userInfo == ["conversation": "t-7"])
        #expect(notification.category?.id == "message")
    }
}
