import DBusCore
import NotificationModel
import Testing

@testable import NotificationBridge

/// The exact `Notify` arguments built for each kind of server.
@Suite struct NotifyEncoderTests {
    static func server(_ name: String, _ capabilities: Set<String>) -> NotificationServerInfo {
        NotificationServerInfo(name: name, vendor: "test", version: "1", specVersion: "1.2", capabilities: capabilities)
    }

    static let dunst = server("dunst", ["actions", "body", "body-markup", "body-hyperlinks", "persistence"])
    static let plasma = server("Plasma", ["actions", "body", "body-markup", "inline-reply", "persistence"])
    static let gnome = server("gnome-shell", ["actions", "body", "body-markup", "persistence", "sound"])
    static let mako = server("mako", ["body", "body-markup"])

    static let reply = NotificationAction(
        id: "reply", title: "Reply", activation: .background,
        behavior: .textInput(submitButtonTitle: "Send", placeholder: "Message"), textInputFallback: .deliverWithoutText)
    static let markRead = NotificationAction(id: "read", title: "Mark as Read", activation: .background)
    static let delete = NotificationAction(
        id: "delete", title: "Delete", activation: .background, isDestructive: true, requiresAuthentication: true)
    static let open = NotificationAction(id: "open", title: "Open", activation: .foreground)
    static let message = NotificationCategory(
        id: "message", actions: [reply, markRead, delete, open], minimalActions: [reply, delete])

    static func content(_ body: String = "Lunch?") -> NotificationContent {
        var content = NotificationContent(title: "Ann", body: body)
        content.appName = "Mail"
        content.categoryID = "message"
        content.desktopEntry = "org.example.Mail"
        content.defaultActionLabel = "Show"
        return content
    }

    @Test func dunstGetsEveryActionWithDestructiveFirstAndPromptedReply() {
        let encoder = NotifyEncoder(server: Self.dunst, promptAvailable: true)
        let encoded = encoder.encode(Self.content(), category: Self.message, senderPID: 42)
        let request = encoded.request
        #expect(request.appName == "Mail")
        #expect(request.replacesID == 0)
        #expect(request.summary == "Ann")
        #expect(request.body == "Lunch?")
        #expect(
            request.actions == [
                "default", "Show", "delete", "Delete", "reply", "Reply", "read", "Mark as Read", "open", "Open",
            ])
        #expect(request.hints["urgency"] == .byte(1))
        #expect(request.hints["desktop-entry"] == .string("org.example.Mail"))
        // The bridge's category is its own, never the freedesktop hint of that name.
        #expect(request.hints["category"] == nil)
        #expect(request.hints["sender-pid"] == .int64(42))
        #expect(request.hints["x-kde-reply-placeholder-text"] == nil)
        #expect(request.expireTimeout == -1)
        #expect(encoded.textInput["reply"] == .prompt)
        #expect(encoded.actionsByKey["reply"]?.id == "reply")
    }

    @Test func plasmaGetsTheInlineReplyPairAndHints() {
        let encoder = NotifyEncoder(server: Self.plasma, promptAvailable: true)
        let encoded = encoder.encode(Self.content(), category: Self.message)
        #expect(encoded.request.actions.contains("inline-reply"))
        let index = encoded.request.actions.firstIndex(of: "inline-reply")!
        #expect(encoded.request.actions[index + 1] == "Reply")
        #expect(!encoded.request.actions.contains("reply"))
        #expect(encoded.request.hints["x-kde-reply-placeholder-text"] == .string("Message"))
        #expect(encoded.request.hints["x-kde-reply-submit-button-text"] == .string("Send"))
        #expect(encoded.actionsByKey["inline-reply"]?.id == "reply")
        #expect(encoded.textInput["reply"] == .inlineReply)
    }

    @Test func gnomeShellGetsTheMinimalSetKeepingTheDestructiveAction() {
        let encoder = NotifyEncoder(server: Self.gnome, promptAvailable: true)
        let encoded = encoder.encode(Self.content(), category: Self.message)
        #expect(encoded.request.actions == ["default", "Show", "delete", "Delete", "reply", "Reply"])
    }

    @Test func trimmingForFewButtonsDropsNonDestructiveActionsFirst() {
        let actions = [Self.markRead, Self.open, Self.delete, NotificationAction(id: "later", title: "Later")]
        var content = Self.content()
        content.categoryID = nil
        content.actions = actions
        content.defaultActionLabel = nil
        let encoded = NotifyEncoder(server: Self.gnome, promptAvailable: false).encode(content, category: nil)
        #expect(encoded.request.actions == ["delete", "Delete", "read", "Mark as Read", "open", "Open"])
    }

    @Test func snoozeIntervalsComeLastOneButtonEach() {
        var content = Self.content()
        content.snoozeIntervals = [.minutes(10), .hours(1)]
        let encoded = NotifyEncoder(server: Self.dunst, promptAvailable: true).encode(content, category: Self.message)
        #expect(
            encoded.request.actions.suffix(4) == ["snooze:600", "Snooze 10 min", "snooze:3600", "Snooze 1 h"])
        #expect(encoded.snoozeByKey == ["snooze:600": .minutes(10), "snooze:3600": .hours(1)])
        #expect(encoded.actionsByKey["snooze:600"] == nil, "a snooze button is the session's own, not an action")
    }

    @Test func fewButtonsKeepOneForTheFirstSnoozeInterval() {
        var content = Self.content()
        content.snoozeIntervals = [.minutes(10), .hours(1)]
        content.categoryID = nil
        content.actions = [Self.markRead, Self.open, NotificationAction(id: "later", title: "Later")]
        content.defaultActionLabel = nil
        let encoded = NotifyEncoder(server: Self.gnome, promptAvailable: true).encode(content, category: nil)
        #expect(encoded.request.actions == ["read", "Mark as Read", "open", "Open", "snooze:600", "Snooze 10 min"])
        // Where no snooze is offered (nil or none), the actions have every button.
        content.snoozeIntervals = []
        #expect(
            NotifyEncoder(server: Self.gnome, promptAvailable: true).encode(content, category: nil).request.actions
                .count == 6)
        content.snoozeIntervals = [.minutes(10)]
        #expect(
            NotifyEncoder(server: Self.mako, promptAvailable: true).encode(content, category: nil).request.actions
                .isEmpty)
    }

    @Test func serverWithoutActionsGetsNone() {
        let encoded = NotifyEncoder(server: Self.mako, promptAvailable: true).encode(
            Self.content(), category: Self.message)
        #expect(encoded.request.actions.isEmpty)
        #expect(encoded.textInput["reply"] == .hidden)
    }

    @Test(arguments: [
        (NotificationAction.TextInputFallback.hide, TextInputRendering.hidden),
        (NotificationAction.TextInputFallback.deliverWithoutText, TextInputRendering.buttonWithoutText),
    ])
    func withoutInlineReplyOrPromptTheFallbackDecides(
        fallback: NotificationAction.TextInputFallback, expected: TextInputRendering
    ) {
        var action = Self.reply
        action.textInputFallback = fallback
        let category = NotificationCategory(id: "message", actions: [action, Self.markRead])
        let encoded = NotifyEncoder(server: Self.dunst, promptAvailable: false).encode(
            Self.content(), category: category)
        #expect(encoded.textInput["reply"] == expected)
        #expect(encoded.request.actions.contains("reply") == (expected == .buttonWithoutText))
    }

    @Test func bodyIsEscapedOnlyWhereTheServerReadsMarkup() {
        let text = "1 < 2 & <b>bold</b>"
        let markup = NotifyEncoder(server: Self.dunst, promptAvailable: false).encode(Self.content(text), category: nil)
        #expect(markup.request.body == "1 &lt; 2 &amp; &lt;b&gt;bold&lt;/b&gt;")
        let plain = NotifyEncoder(server: Self.server("plain", ["actions", "body"]), promptAvailable: false)
            .encode(Self.content(text), category: nil)
        #expect(plain.request.body == text)
    }

    @Test func soundImageResidencyUrgencyAndTimeoutBecomeHints() {
        var content = Self.content()
        content.sound = .named("message-new-instant")
        content.image = "/tmp/picture.png"
        content.isResident = true
        content.isTransient = true
        content.urgency = .critical
        content.timeout = .milliseconds(5000)
        content.icon = "mail-unread"
        var request = NotifyEncoder(server: Self.dunst, promptAvailable: false).encode(content, category: nil).request
        #expect(request.hints["sound-name"] == .string("message-new-instant"))
        #expect(request.hints["image-path"] == .string("/tmp/picture.png"))
        #expect(request.hints["resident"] == .boolean(true))
        #expect(request.hints["transient"] == .boolean(true))
        #expect(request.hints["urgency"] == .byte(2))
        #expect(request.expireTimeout == 5000)
        #expect(request.appIcon == "mail-unread")
        content.sound = .none
        request = NotifyEncoder(server: Self.dunst, promptAvailable: false).encode(content, category: nil).request
        #expect(request.hints["suppress-sound"] == .boolean(true))
        content.sound = .file("/usr/share/sounds/x.oga")
        request = NotifyEncoder(server: Self.dunst, promptAvailable: false).encode(content, category: nil).request
        #expect(request.hints["sound-file"] == .string("/usr/share/sounds/x.oga"))
    }

    @Test func destructiveOrderAndMarkerAreConfigurable() {
        let rendering = NotificationRendering(destructiveOrder: .last, destructiveMarker: "⚠ ")
        let category = NotificationCategory(id: "message", actions: [Self.delete, Self.markRead])
        let encoded = NotifyEncoder(server: Self.dunst, rendering: rendering, promptAvailable: false)
            .encode(Self.content(), category: category)
        #expect(encoded.request.actions == ["default", "Show", "read", "Mark as Read", "delete", "⚠ Delete"])
    }

    @Test("on notification-terminal-server a destructive label carries the marker it reads, unless one is chosen")
    func terminalServerGetsItsDestructiveMarker() {
        let terminal = Self.server("notification-terminal-server", ["actions", "body", "body-markup", "persistence"])
        let category = NotificationCategory(id: "message", actions: [Self.delete, Self.markRead])
        let byDefault = NotifyEncoder(server: terminal, promptAvailable: false).encode(
            Self.content(), category: category)
        #expect(byDefault.request.actions == ["default", "Show", "delete", "⚠ Delete", "read", "Mark as Read"])
        let chosen = NotifyEncoder(
            server: terminal, rendering: NotificationRendering(destructiveMarker: "[!] "), promptAvailable: false
        ).encode(Self.content(), category: category)
        #expect(chosen.request.actions == ["default", "Show", "delete", "[!] Delete", "read", "Mark as Read"])
        let elsewhere = NotifyEncoder(server: Self.dunst, promptAvailable: false).encode(
            Self.content(), category: category)
        #expect(elsewhere.request.actions == ["default", "Show", "delete", "Delete", "read", "Mark as Read"])
    }

    @Test func wireArgumentsHaveNotifysSignatureEvenWhenEmpty() {
        var content = NotificationContent(title: "Plain", body: "")
        content.defaultActionLabel = nil
        let request = NotifyEncoder(server: Self.mako, promptAvailable: false).encode(content, category: nil).request
        #expect(request.arguments.map(\.signature.rawValue).joined() == "susssasa{sv}i")
    }
}
