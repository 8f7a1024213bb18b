import DBusCore
import DBusTestSupport
import NotificationServerKit
import Testing

/// KDE's inline reply, as Plasma and SwayNotificationCenter deliver it.
@Suite struct InlineReplyTests {
    private static let replyHints: [String: DBusValue] = [
        "x-kde-reply-placeholder-text": .string("Write a reply…"),
        "x-kde-reply-submit-button-text": .string("Send"),
    ]

    @Test func plasmaRepliesToTheSenderThenClosesWithReason3() async throws {
        try await ServerFixture.with(.plasma) { fixture in
            let id = try await fixture.notify(
                summary: "Ada", body: "Lunch?", actions: ["inline-reply", "Reply"], hints: Self.replyHints)
            let notification = try #require(await fixture.server.notification(id: id))
            #expect(notification.inlineReplyPlaceholder == "Write a reply…")
            #expect(notification.inlineReplySubmitText == "Send")
            // The reply field is not a button.
            #expect(await fixture.server.buttons(of: notification).isEmpty)

            try await fixture.server.reply(id: id, text: "Sure, at noon")
            try fixture.sendSentinel()
            #expect(
                try await fixture.clientSignals.untilSentinel()
                    == [.replied(id, "Sure, at noon"), .closed(id, .closedByCall)])
            // The text goes to the sender only; the close is broadcast, as Plasma's signals are.
            #expect(try await fixture.bystanderSignals.untilSentinel() == [.closed(id, .closedByCall)])
            let (closed, reason) = try await fixture.events.nextClosed()
            #expect(closed.id == id && reason == .closedByCall)
        }
    }

    @Test func swayBroadcastsTheReplyThenClosesWithReason2() async throws {
        // SwayNotificationCenter after 0.7.3 (Debian 12's has no inline reply).
        var profile = NotificationServerProfile.swayNotificationCenter
        profile.capabilities.append("inline-reply")
        profile.replyDelivery = .swayNotificationCenter
        profile.repeatsNotificationClosed = false
        try await ServerFixture.with(profile) { fixture in
            let id = try await fixture.notify(
                summary: "Ada", actions: ["inline-reply", "Reply"], hints: Self.replyHints)
            try await fixture.server.reply(id: id, text: "ok")
            try fixture.sendSentinel()
            let expected: [SeenSignal] = [.replied(id, "ok"), .closed(id, .dismissed)]
            #expect(try await fixture.clientSignals.untilSentinel() == expected)
            #expect(try await fixture.bystanderSignals.untilSentinel() == expected)
        }
    }

    @Test func replyNeedsAReplyFieldAndIsNotAButton() async throws {
        try await ServerFixture.with(.plasma) { fixture in
            let server = fixture.server
            let plain = try await fixture.notify(summary: "no field", actions: ["ok", "OK"])
            await #expect(throws: NotificationServerError.noInlineReply(id: plain)) {
                try await server.reply(id: plain, text: "x")
            }
            let withField = try await fixture.notify(summary: "field", actions: ["inline-reply", "Reply"])
            await #expect(throws: NotificationServerError.inlineReplyIsNotAButton(id: withField)) {
                try await server.invokeAction(id: withField, key: "inline-reply")
            }
            await #expect(throws: DBusFailure.self) {
                try await server.reply(id: withField, text: "nul\u{0}inside")
            }
            #expect(await server.notification(id: withField) != nil, "a failed reply leaves the notification up")
        }
    }

    @Test func withoutTheCapabilityInlineReplyIsAPlainButton() async throws {
        try await ServerFixture.with(.mako) { fixture in
            let id = try await fixture.notify(summary: "fallback", actions: ["inline-reply", "Reply"])
            try await fixture.server.invokeAction(id: id, key: "inline-reply")
            try fixture.sendSentinel()
            // mako leaves it up after the action.
            #expect(try await fixture.clientSignals.untilSentinel() == [.action(id, "inline-reply")])
        }
    }
}
