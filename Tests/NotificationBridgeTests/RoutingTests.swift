import DBusCore
import DBusTestSupport
import Foundation
import NotificationModel
import NotificationServerKit
import Testing

@testable import NotificationBridge

/// Responses routed back from servers that behave like the real ones.
@Suite struct RoutingTests {
    static let profiles: [(String, NotificationServerProfile)] = [
        ("dunst", .dunst), ("plasma", .plasma), ("gnome-shell", .gnomeShell), ("xfce4-notifyd", .xfce4Notifyd),
        ("swaync", .swayNotificationCenter), ("notification-daemon", .notificationDaemon), ("mako", .mako),
    ]

    /// A SwayNotificationCenter newer than Debian 12's 0.7.3: with its inline reply.
    static var swayWithInlineReply: NotificationServerProfile {
        var profile = NotificationServerProfile.swayNotificationCenter
        profile.capabilities.append("inline-reply")
        profile.replyDelivery = .swayNotificationCenter
        return profile
    }

    @Test(arguments: profiles.map(\.0))
    func backgroundActionReachesItsHandlerAndIsNotADismissal(profileName: String) async throws {
        let profile = Self.profiles.first { $0.0 == profileName }!.1
        try await BridgeFixture.with(profile, categories: [BridgeFixture.message(reportsDismissal: true)]) { fixture in
            let (id, served) = try await fixture.post(BridgeFixture.content())
            #expect(served.summary == "Ann")
            #expect(served.appName == "Mail")
            // "delete" is in the minimal set too, so even GNOME Shell's three buttons show it.
            try await fixture.server.invokeAction(id: served.id, key: "delete")
            let response = try await fixture.nextResponse()
            #expect(response.notificationID == id)
            #expect(response.actionID == "delete")
            #expect(response.userText == nil)
            #expect(response.userInfo == ["thread": .string("t-42")])
            let closure = try await fixture.nextClosure()
            #expect(closure.id == id)
            #expect(closure.acted)
            #expect(!closure.dismissed)
        }
    }

    @Test func plasmaInlineReplyCarriesTheTypedText() async throws {
        try await BridgeFixture.with(.plasma) { fixture in
            let (id, served) = try await fixture.post(BridgeFixture.content())
            #expect(served.inlineReplyPlaceholder == "Message")
            #expect(served.actions.map(\.key).contains("inline-reply"))
            try await fixture.server.reply(id: served.id, text: "on my way; $(rm -rf /) 'ü'")
            let response = try await fixture.nextResponse()
            #expect(response.notificationID == id)
            #expect(response.actionID == "reply")
            #expect(response.userText == "on my way; $(rm -rf /) 'ü'")
        }
    }

    @Test func swayInlineReplyWithoutActionInvokedIsAReplyNotADismissal() async throws {
        try await BridgeFixture.with(
            Self.swayWithInlineReply, categories: [BridgeFixture.message(reportsDismissal: true)]
        ) { fixture in
            let (_, served) = try await fixture.post(BridgeFixture.content())
            try await fixture.server.reply(id: served.id, text: "yes")
            let response = try await fixture.nextResponse()
            #expect(response.actionID == "reply")
            #expect(response.userText == "yes")
            let closure = try await fixture.nextClosure()
            #expect(!closure.dismissed)
        }
    }

    @Test func textInputWithoutInlineReplyAsksThroughThePrompt() async throws {
        let script = try Self.promptScript(printing: "typed through the prompt; `uname` & ünï")
        try await BridgeFixture.with(.dunst, promptCommand: [script]) { fixture in
            let (id, served) = try await fixture.post(BridgeFixture.content())
            #expect(served.actions.map(\.key).contains("reply"))
            try await fixture.server.invokeAction(id: served.id, key: "reply")
            let response = try await fixture.nextResponse()
            #expect(response.notificationID == id)
            #expect(response.actionID == "reply")
            #expect(response.userText == "typed through the prompt; `uname` & ünï")
        }
    }

    @Test func dismissalIsReportedOnlyWhenTheCategoryAsks() async throws {
        try await BridgeFixture.with(.dunst, categories: [BridgeFixture.message(reportsDismissal: true)]) { fixture in
            let (id, served) = try await fixture.post(BridgeFixture.content())
            try await fixture.server.dismiss(id: served.id)
            let response = try await fixture.nextResponse()
            #expect(response.notificationID == id)
            #expect(response.actionID == "dismiss")
        }
        try await BridgeFixture.with(.dunst, categories: [BridgeFixture.message(reportsDismissal: false)]) { fixture in
            let first = try await fixture.post(BridgeFixture.content())
            try await fixture.server.dismiss(id: first.served.id)
            let closure = try await fixture.nextClosure()
            #expect(closure.dismissed)
            // Nothing was delivered for the dismissal: the next response is the next action's.
            let second = try await fixture.post(BridgeFixture.content(title: "Bob"))
            try await fixture.server.invokeAction(id: second.served.id, key: "read")
            let response = try await fixture.nextResponse()
            #expect(response.notificationID == second.id)
        }
    }

    @Test("SwayNotificationCenter 0.7.3 closes twice per dismissal: the app hears one dismissal")
    func swayDoubleCloseIsOneDismissal() async throws {
        try await BridgeFixture.with(
            .swayNotificationCenter, categories: [BridgeFixture.message(reportsDismissal: true)]
        ) { fixture in
            let first = try await fixture.post(BridgeFixture.content())
            try await fixture.server.dismiss(id: first.served.id)
            let dismissal = try await fixture.nextResponse()
            #expect(dismissal.notificationID == first.id && dismissal.actionID == "dismiss")
            // The second NotificationClosed delivered nothing more: the next response is the next action's.
            let second = try await fixture.post(BridgeFixture.content(title: "Bob"))
            try await fixture.server.invokeAction(id: second.served.id, key: "read")
            let response = try await fixture.nextResponse()
            #expect(response.notificationID == second.id && response.actionID == "read")
        }
    }

    @Test("mako 1.7.1 leaves a notification up after an action: the bridge closes it, and it is not a dismissal")
    func makoIsClosedByTheBridgeAfterAnAction() async throws {
        try await BridgeFixture.with(.mako, categories: [BridgeFixture.message(reportsDismissal: true)]) { fixture in
            let (id, served) = try await fixture.post(BridgeFixture.content())
            try await fixture.server.invokeAction(id: served.id, key: "read")
            #expect(try await fixture.nextResponse().actionID == "read")
            let closure = try await fixture.nextClosure()
            #expect(closure.id == id && closure.acted && !closure.dismissed)
            #expect(closure.reason == .closedByCall)
            #expect(await fixture.server.notifications.isEmpty, "the bridge did not close it on mako")
        }
    }

    @Test func spoofedSignalsFromAnotherConnectionAreIgnored() async throws {
        try await BridgeFixture.with(.xfce4Notifyd) { fixture in
            let (id, served) = try await fixture.post(BridgeFixture.content())
            let rogue = try await fixture.bus.connect()
            try rogue.emit(
                path: "/org/freedesktop/Notifications", interface: "org.freedesktop.Notifications",
                member: "ActionInvoked", arguments: [.uint32(served.id), .string("delete")])
            try rogue.emit(
                path: "/org/freedesktop/Notifications", interface: "org.freedesktop.Notifications",
                member: "ActionInvoked", arguments: [.uint32(served.id), .string("delete")],
                destination: fixture.connection.uniqueName)
            try await fixture.server.invokeAction(id: served.id, key: "read")
            let response = try await fixture.nextResponse()
            #expect(response.notificationID == id)
            #expect(response.actionID == "read")
            await rogue.close()
        }
    }

    @Test func actionsOnNotificationsTheBridgeDidNotPostAreIgnored() async throws {
        try await BridgeFixture.with(.xfce4Notifyd) { fixture in
            let other = try await fixture.bus.connect()
            _ = try await other.call(
                destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                interface: "org.freedesktop.Notifications", method: "Notify",
                arguments: NotifyRequest(
                    appName: "other", replacesID: 0, appIcon: "", summary: "not ours", body: "",
                    actions: ["read", "Read"], hints: [:], expireTimeout: -1
                ).arguments)
            let foreign = try await fixture.nextServed()
            let (id, served) = try await fixture.post(BridgeFixture.content())
            try await fixture.server.invokeAction(id: foreign.id, key: "read")
            try await fixture.server.invokeAction(id: served.id, key: "read")
            let response = try await fixture.nextResponse()
            #expect(response.notificationID == id)
            await other.close()
        }
    }

    @Test func aServerRestartRepostsOutstandingNotifications() async throws {
        try await BridgeFixture.with(.dunst) { fixture in
            let (id, _) = try await fixture.post(BridgeFixture.content())
            // The server's process exits.
            await fixture.serverConnection.close()
            let replacement = NotificationServer()
            let events = replacement.events()
            let connection = try await fixture.bus.connect()
            try await replacement.start(on: connection, profile: NotificationServerProfile.dunst.withoutDefaultExpiry)
            async let replacementRunning: Void = replacement.run()
            let served = try await withTimeout(waitingFor: "the bridge to post again") {
                for await case .notified(let served) in events { return served }
                throw TestSupportError("events ended")
            }
            #expect(served.summary == "Ann")
            try await replacement.invokeAction(id: served.id, key: "read")
            let response = try await fixture.nextResponse()
            #expect(response.notificationID == id)
            #expect(response.actionID == "read")
            await connection.close()
            await replacementRunning
        }
    }

    @Test func handlersArePickedByNotificationThenActionThenCategory() async throws {
        try await BridgeFixture.with(.dunst) { fixture in
            let received = AsyncStream.makeStream(of: String.self)
            await fixture.center.setHandler(forAction: "read", inCategory: "message") { response in
                received.continuation.yield("action:\(response.actionID)")
            }
            await fixture.center.setHandler(forCategory: "message") { response in
                received.continuation.yield("category:\(response.actionID)")
            }
            let id = try await fixture.center.post(
                BridgeFixture.content(),
                handler: { response in
                    received.continuation.yield("notification:\(response.actionID)")
                })
            let own = try await fixture.nextServed()
            _ = id
            try await fixture.server.invokeAction(id: own.id, key: "read")
            #expect(try await received.stream.first(waitingFor: "the notification's handler") == "notification:read")
            let second = try await fixture.post(BridgeFixture.content(title: "Bob"))
            try await fixture.server.invokeAction(id: second.served.id, key: "read")
            #expect(try await received.stream.first(waitingFor: "the action's handler") == "action:read")
            let third = try await fixture.post(BridgeFixture.content(title: "Cy"))
            try await fixture.server.invokeAction(id: third.served.id, key: "delete")
            #expect(try await received.stream.first(waitingFor: "the category's handler") == "category:delete")
        }
    }

    @Test func invalidContentThrowsAnErrorThatSaysWhatToChange() async throws {
        try await BridgeFixture.with(.dunst) { fixture in
            var content = BridgeFixture.content()
            content.categoryID = "no-such-category"
            do {
                try await fixture.center.post(content)
                Issue.record("posting with an unknown category succeeded")
            } catch let error as NotificationValidationError {
                #expect(String(describing: error).contains("no-such-category"))
            }
        }
    }

    @Test func withdrawClosesTheNotificationOnTheServer() async throws {
        try await BridgeFixture.with(.dunst) { fixture in
            let (id, served) = try await fixture.post(BridgeFixture.content())
            #expect(await fixture.center.deliveredNotifications().map(\.id) == [id])
            await fixture.center.withdraw(id: id)
            let closed = try await withTimeout(waitingFor: "the server to close it") {
                for await case .closed(let notification, _) in fixture.serverEvents { return notification }
                throw TestSupportError("events ended")
            }
            #expect(closed.id == served.id)
            #expect(await fixture.center.deliveredNotifications().isEmpty)
        }
    }

    /// A prompt command that prints `text` as the user's reply.
    static func promptScript(printing text: String) throws -> String {
        let quoted = text.replacingOccurrences(of: "'", with: "'\\''")
        return try ExecutableScript.temporary("#!/bin/sh\nprintf '%s\\n' '\(quoted)'\n", name: "prompt")
    }
}

/// Updating a notification keeps its bridge id, whatever id the server gives the replacement.
@Suite struct ReplaceTests {
    @Test(arguments: [false, true])
    func updatesFollowTheServersId(newIDOnReplace: Bool) async throws {
        var profile = NotificationServerProfile.dunst
        profile.newIDOnReplace = newIDOnReplace
        try await BridgeFixture.with(profile) { fixture in
            let (id, first) = try await fixture.post(BridgeFixture.content(body: "Lunch?"))
            var updated = BridgeFixture.content(body: "Lunch at 12?")
            updated.categoryID = "message"
            #expect(try await fixture.center.post(updated, id: id) == id)
            let second = try await fixture.nextServed()
            #expect(second.replacesID == first.id)
            #expect(second.body == "Lunch at 12?")
            #expect((second.id != first.id) == newIDOnReplace)
            try await fixture.server.invokeAction(id: second.id, key: "read")
            let response = try await fixture.nextResponse()
            #expect(response.notificationID == id)
            #expect(await fixture.center.deliveredNotifications().count <= 1)
        }
    }
}
