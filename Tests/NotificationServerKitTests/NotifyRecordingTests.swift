import DBusCore
import DBusTestSupport
import NotificationServerKit
import Testing

/// Real clients post, and the server keeps exactly what they sent.
@Suite struct NotifyRecordingTests {
    @Test func notifySendIsRecordedFaithfully() async throws {
        try await ServerFixture.with(.fullFeatured) { fixture in
            let result = try await runClient(
                [
                    "notify-send", "--print-id", "--app-name=Mail", "--icon=mail-unread", "--urgency=critical",
                    "--expire-time=4000", "--category=email.arrived", "--transient",
                    "--hint=string:desktop-entry:org.example.Mail",
                    "--hint=string:x-kde-reply-placeholder-text:Answer…",
                    "New mail", "From: Ada <ada@example.org> & friends",
                ], on: fixture)
            #expect(result.status == 0, "\(result.standardError)")
            let notification = try #require(await fixture.server.notifications.first)
            #expect(result.output == String(notification.id))
            #expect(notification.id > 0)
            #expect(notification.appName == "Mail")
            #expect(notification.icon == "mail-unread")
            #expect(notification.summary == "New mail")
            #expect(notification.body == "From: Ada <ada@example.org> & friends")
            #expect(notification.expireTimeout == 4000)
            #expect(notification.urgency == 2)
            #expect(notification.hints["urgency"] == .byte(2))
            #expect(notification.category == "email.arrived")
            #expect(notification.desktopEntry == "org.example.Mail")
            #expect(notification.inlineReplyPlaceholder == "Answer…")
            #expect(notification.isTransient)
            #expect(!notification.isResident)
            #expect(notification.actions.isEmpty)
            #expect(notification.replacesID == 0)
            #expect((notification.senderPID ?? 0) > 0, "libnotify adds sender-pid")
            #expect(notification.sender.hasPrefix(":"))

            let notify = try #require(await fixture.server.calls.first { $0.member == "Notify" })
            #expect(notify.sender == notification.sender)
            #expect(notify.arguments.count == 8)
            #expect(notify.arguments.first == .string("Mail"))
        }
    }

    @Test func gdbusCallIsRecordedWithItsExactTypes() async throws {
        try await ServerFixture.with(.plasma) { fixture in
            let result = try await gdbusCall(
                "Notify",
                [
                    "Chat", "0", "im-message", "Ada", "Lunch?", "['default', 'Open', 'later', 'Remind me']",
                    "{'category': <'im.received'>, 'urgency': <byte 0>, 'resident': <true>, 'x': <int32 -5>}", "2500",
                ], on: fixture)
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.output == "(uint32 1,)")

            let notification = try #require(await fixture.server.notification(id: 1))
            #expect(
                notification.actions == [.init(key: "default", label: "Open"), .init(key: "later", label: "Remind me")])
            #expect(
                notification.hints == [
                    "category": .string("im.received"), "urgency": .byte(0), "resident": .boolean(true),
                    "x": .int32(-5),
                ])
            #expect(notification.urgency == 0)
            #expect(notification.isResident)
            #expect(notification.expireTimeout == 2500)
            #expect(await fixture.server.buttons(of: notification) == ["later"])

            let call = try #require(await fixture.server.calls.last)
            #expect(call.member == "Notify")
            #expect(
                call.arguments[0..<5] == [
                    .string("Chat"), .uint32(0), .string("im-message"), .string("Ada"), .string("Lunch?"),
                ])
            #expect(call.arguments[5] == .strings(["default", "Open", "later", "Remind me"]))
            #expect(call.arguments[7] == .int32(2500))
        }
    }

    @Test func idsAreDistinctAndPositive() async throws {
        try await ServerFixture.with(.dunst) { fixture in
            var ids: [UInt32] = []
            for number in 1...5 { ids.append(try await fixture.notify(summary: "n\(number)")) }
            #expect(Set(ids).count == 5)
            #expect(ids.allSatisfy { $0 > 0 })
            #expect(await fixture.server.notifications.map(\.id) == ids)
        }
    }

    @Test func gnomeShellDropsTheNotificationsOfASenderThatLeaves() async throws {
        try await ServerFixture.with(.gnomeShell) { fixture in
            let result = try await runClient(["notify-send", "--print-id", "Gone soon"], on: fixture)
            #expect(result.status == 0, "\(result.standardError)")
            // notify-send has exited, so its connection is gone: GNOME Shell drops the notification, with no signal.
            let (dropped, reason) = try await fixture.events.nextClosed()
            #expect(String(dropped.id) == result.output)
            #expect(reason == .undefined)
            #expect(await fixture.server.notifications.isEmpty)
        }
    }

    @Test func otherServersKeepTheNotificationsOfASenderThatLeft() async throws {
        try await ServerFixture.with(.plasma) { fixture in
            let result = try await runClient(["notify-send", "--print-id", "Stays"], on: fixture)
            #expect(result.status == 0, "\(result.standardError)")
            #expect(await fixture.server.notifications.map { String($0.id) } == [result.output])
        }
    }
}
