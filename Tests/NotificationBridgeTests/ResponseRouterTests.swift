import NotificationModel
import Testing

@testable import NotificationBridge

/// How server signals map to responses, whatever the server's quirks.
@Suite struct ResponseRouterTests {
    static func posted(id: String = "n1", serverID: UInt32 = 7, resident: Bool = false) -> PostedNotification {
        var content = NotifyEncoderTests.content()
        content.isResident = resident
        let server = NotifyEncoderTests.plasma
        let encoded = NotifyEncoder(server: server, promptAvailable: false)
            .encode(content, category: NotifyEncoderTests.message)
        return PostedNotification(
            id: id, serverID: serverID, content: content, category: NotifyEncoderTests.message, encoded: encoded)
    }

    @Test func unknownIdsAreIgnored() {
        var router = ResponseRouter()
        router.follow(Self.posted())
        #expect(router.handle(.actionInvoked(id: 99, key: "delete")) == nil)
        #expect(router.handle(.closed(id: 99, reason: .dismissed)) == nil)
        #expect(router.notification(id: "n1") != nil)
    }

    @Test("a signal from another server than the one that took the notification is not about it")
    func signalsOfAnotherServerAreIgnored() throws {
        var router = ResponseRouter()
        var notification = Self.posted()
        notification.serverOwner = ":1.20"
        router.follow(notification)
        // The server that left numbered its notifications too: its late signals name ids the new one gave anew.
        #expect(router.handle(.activationToken(id: 7, token: "old"), from: ":1.9") == nil)
        #expect(router.handle(.actionInvoked(id: 7, key: "delete"), from: ":1.9") == nil)
        #expect(router.handle(.replied(id: 7, text: "old"), from: ":1.9") == nil)
        #expect(router.handle(.closed(id: 7, reason: .dismissed), from: ":1.9") == nil)
        #expect(router.notification(id: "n1")?.acted == false, "nothing of the old server's signals was taken")

        guard
            case .action(_, let action, let token)? = router.handle(.actionInvoked(id: 7, key: "delete"), from: ":1.20")
        else {
            Issue.record("the action of the server that took it was not routed")
            return
        }
        #expect(action?.id == "delete")
        #expect(token == nil, "the old server's token was not kept for this action")
    }

    /// The session holds a signal that comes while a `Notify` is out unless it is about a followed notification: a
    /// new server numbers from 1 again, and a click on a notification posted again to it, read before the answer of
    /// that `Notify`, named an id that the notification's entry of the previous server still held. Taken as followed,
    /// it was routed at once, ignored as another server's, and the click lost.
    @Test(
        "a signal is followed exactly when it would be routed: same id, and the server that took it",
        arguments: [
            (owner: ":1.20", sender: ":1.20", serverID: UInt32(7), followed: true),
            (owner: ":1.20", sender: ":1.9", serverID: 7, followed: false),
            (owner: ":1.20", sender: nil, serverID: 7, followed: true),
            (owner: nil, sender: ":1.9", serverID: 7, followed: true),
            (owner: ":1.20", sender: ":1.20", serverID: 8, followed: false),
        ] as [(owner: String?, sender: String?, serverID: UInt32, followed: Bool)])
    func followedMeansRouted(owner: String?, sender: String?, serverID: UInt32, followed: Bool) {
        var router = ResponseRouter()
        var notification = Self.posted()
        notification.serverOwner = owner
        router.follow(notification)
        #expect(router.follows(serverID: serverID, from: sender) == followed)
        #expect((router.handle(.actionInvoked(id: serverID, key: "delete"), from: sender) != nil) == followed)
    }

    @Test("a signal whose sender is unknown, or about a notification whose server is unknown, is routed")
    func unknownSendersAreRouted() {
        var router = ResponseRouter()
        router.follow(Self.posted())
        #expect(router.handle(.actionInvoked(id: 7, key: "delete"), from: ":1.9") != nil, "adopted: server unknown")
        var other = Self.posted(id: "n2", serverID: 8)
        other.serverOwner = ":1.20"
        router.follow(other)
        #expect(router.handle(.actionInvoked(id: 8, key: "delete")) != nil)
    }

    @Test func unknownActionKeysAreIgnored() {
        var router = ResponseRouter()
        router.follow(Self.posted())
        #expect(router.handle(.actionInvoked(id: 7, key: "format-disk")) == nil)
    }

    @Test func tokenIsAttachedToTheActionThatFollows() throws {
        var router = ResponseRouter()
        router.follow(Self.posted())
        #expect(router.handle(.activationToken(id: 7, token: "tok-1")) == nil)
        guard case .action(_, let action, let token)? = router.handle(.actionInvoked(id: 7, key: "open")) else {
            Issue.record("expected an action")
            return
        }
        #expect(action?.id == "open")
        #expect(token == "tok-1")
    }

    @Test func inlineReplyCarriesTheTextForTheTextInputAction() {
        var router = ResponseRouter()
        router.follow(Self.posted())
        guard case .reply(_, let action, let text, _)? = router.handle(.replied(id: 7, text: "on my way")) else {
            Issue.record("expected a reply")
            return
        }
        #expect(action.id == "reply")
        #expect(text == "on my way")
    }

    @Test(arguments: [NotificationCloseReason.dismissed, .closedByCall, .expired, .undefined])
    func closeAfterAnActionIsNeverADismissal(reason: NotificationCloseReason) {
        var router = ResponseRouter()
        router.follow(Self.posted())
        _ = router.handle(.actionInvoked(id: 7, key: "read"))
        guard case .closed(_, _, let dismissal)? = router.handle(.closed(id: 7, reason: reason)) else {
            Issue.record("expected a close")
            return
        }
        #expect(!dismissal)
        #expect(router.notification(id: "n1") == nil)
    }

    @Test func onlyReasonTwoWithoutActionIsADismissal() {
        for reason in NotificationCloseReason.allCases {
            var router = ResponseRouter()
            router.follow(Self.posted())
            guard case .closed(_, _, let dismissal)? = router.handle(.closed(id: 7, reason: reason)) else {
                Issue.record("expected a close")
                return
            }
            #expect(dismissal == (reason == .dismissed), "reason \(reason)")
        }
    }

    @Test func aCloseTheBridgeAskedForIsNotADismissal() {
        var router = ResponseRouter()
        router.follow(Self.posted())
        router.markCloseRequested(id: "n1")
        guard case .closed(_, _, let dismissal)? = router.handle(.closed(id: 7, reason: .dismissed)) else {
            Issue.record("expected a close")
            return
        }
        #expect(!dismissal)
    }

    @Test func aDefaultAfterAButtonIsIgnored() {
        var router = ResponseRouter()
        router.follow(Self.posted())
        #expect(router.handle(.actionInvoked(id: 7, key: "read")) != nil)
        #expect(router.handle(.actionInvoked(id: 7, key: "default")) == nil)
    }

    @Test func replacingWithANewServerIdFollowsTheNewId() {
        var router = ResponseRouter()
        router.follow(Self.posted(serverID: 7))
        router.follow(Self.posted(serverID: 8))
        #expect(router.handle(.actionInvoked(id: 7, key: "read")) == nil)
        guard case .action(let notification, _, _)? = router.handle(.actionInvoked(id: 8, key: "read")) else {
            Issue.record("expected an action on the new id")
            return
        }
        #expect(notification.id == "n1")
    }
}

extension RoutedEvent: Equatable {
    /// Two events are the same when they read the same.
    public static func == (lhs: RoutedEvent, rhs: RoutedEvent) -> Bool {
        String(describing: lhs) == String(describing: rhs)
    }
}
