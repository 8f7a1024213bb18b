import DBusCore
import DBusTestSupport
import NotificationModel
import NotificationServerKit
import Testing

@testable import NotificationBridge

/// What the real servers do that users meet (seen on Debian 12's servers), through profiles that do the same.
@Suite struct ServerQuirkTests {
    static let archive = NotificationAction(id: "archive", title: "Archive", activation: .background)

    /// A category that lists its destructive action first, as an action sheet shows it.
    static let destructiveFirst = NotificationCategory(
        id: "message", actions: [BridgeFixture.delete, archive, BridgeFixture.open, BridgeFixture.markRead])

    /// lxqt-notificationd shows more than three actions in a combo box with the first one chosen: one confirming
    /// click must never delete.
    @Test func aConfirmingClickNeverPicksTheDestructiveAction() async throws {
        try await BridgeFixture.with(.lxqtNotificationd, categories: [Self.destructiveFirst]) { fixture in
            let (id, served) = try await fixture.post(BridgeFixture.content())
            let buttons = await fixture.server.buttons(of: served)
            #expect(buttons.contains("delete"), "the destructive action is still shown")
            try await fixture.server.confirmPreselectedAction(id: served.id)
            let response = try await fixture.nextResponse()
            #expect(response.notificationID == id)
            #expect(response.actionID != "delete")
        }
    }

    /// GNOME Shell shows three buttons: a category of four without a minimal set keeps three, the destructive one
    /// among them, so that Reply and Open stay within reach.
    @Test func gnomeShellUsesEveryButtonItShows() async throws {
        let category = NotificationCategory(
            id: "message", actions: [BridgeFixture.delete, BridgeFixture.reply, BridgeFixture.open, Self.archive])
        try await BridgeFixture.with(.gnomeShell, categories: [category]) { fixture in
            let (_, served) = try await fixture.post(BridgeFixture.content())
            let buttons = await fixture.server.buttons(of: served)
            #expect(Set(buttons) == ["delete", "reply", "open"])
            try await fixture.server.invokeAction(id: served.id, key: "open")
            #expect(try await fixture.nextResponse().actionID == "open")
        }
    }

    /// mate-notification-daemon reports its close button with reason 1: before the timeout it is the user's.
    @Test func mateCloseButtonIsADismissal() async throws {
        try await BridgeFixture.with(
            .mateNotificationDaemon, categories: [BridgeFixture.message(reportsDismissal: true)]
        ) { fixture in
            // Asked to stay ten minutes rather than the server's 7 s, so that the close comes before the timeout
            // however slowly the machine runs the test.
            var content = BridgeFixture.content()
            content.timeout = .milliseconds(600_000)
            let (id, served) = try await fixture.post(content)
            try await fixture.server.dismiss(id: served.id)
            let response = try await fixture.nextResponse()
            #expect(response.notificationID == id)
            #expect(response.actionID == NotificationResponse.dismissActionID)
            let closure = try await fixture.nextClosure()
            #expect(closure.reason == .expired)
            #expect(closure.dismissed)
        }
    }

    /// The same server's real expiry, after the timeout, stays an expiry.
    @Test func mateExpiryIsNotADismissal() async throws {
        try await BridgeFixture.with(
            .mateNotificationDaemon, categories: [BridgeFixture.message(reportsDismissal: true)]
        ) { fixture in
            var content = BridgeFixture.content()
            content.timeout = .milliseconds(400)
            let (id, _) = try await fixture.post(content)
            let closure = try await fixture.nextClosure()
            #expect(closure.id == id)
            #expect(closure.reason == .expired)
            #expect(!closure.dismissed)
        }
    }

    /// notification-daemon lets a bubble expire without `NotificationClosed`: the bridge ends it itself, takes it off
    /// the server, and has nothing left to post again after a server restart.
    @Test func notificationDaemonExpiryEndsTheNotification() async throws {
        try await BridgeFixture.with(.notificationDaemon) { fixture in
            var content = BridgeFixture.content()
            content.timeout = .milliseconds(400)
            let (id, served) = try await fixture.post(content)
            let closure = try await fixture.nextClosure()
            #expect(closure.id == id)
            #expect(closure.reason == .expired)
            #expect(!closure.dismissed)
            #expect(await fixture.center.deliveredNotifications().isEmpty)
            let closedOnServer = try await withTimeout(waitingFor: "the bridge to close the expired notification") {
                for await event in fixture.serverEvents {
                    if case .closed(let notification, let reason) = event, notification.id == served.id {
                        return reason
                    }
                }
                throw TestSupportError("the server's events ended")
            }
            #expect(closedOnServer == .closedByCall)
        }
    }

    /// The bridge's category id is never the freedesktop `category` hint; the caller's hint goes there.
    @Test func theServersCategoryHintIsTheCallersOnly() async throws {
        try await BridgeFixture.with(.xfce4Notifyd) { fixture in
            let plain = try await fixture.post(BridgeFixture.content())
            #expect(plain.served.category == nil)
            _ = try await fixture.center.post(BridgeFixture.content(), hints: ["category": .string("email.arrived")])
            #expect(try await fixture.nextServed().category == "email.arrived")
        }
    }

    /// Plasma refuses a notification identical to one it took less than a second before: an app that posts the
    /// same text three times at once (three messages "Ann: ok") still has all three shown, unchanged, each a second
    /// after the one before, and every post succeeds.
    @Test func plasmaShowsEveryIdenticalNotificationOfABurst() async throws {
        try await BridgeFixture.with(.plasma) { fixture in
            let started = ContinuousClock.now
            let ids = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<3 { group.addTask { try await fixture.center.post(BridgeFixture.content(body: "ok")) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let elapsed = ContinuousClock.now - started
            #expect(Set(ids).count == 3, "three posts, three ids: \(ids)")
            let shown = await fixture.server.notifications
            #expect(shown.count == 3, "the server shows \(shown.count) of the three")
            #expect(shown.allSatisfy { $0.summary == "Ann" && $0.body == "ok" }, "the text was changed: \(shown)")
            #expect(elapsed >= .seconds(2), "the server took all three within \(elapsed), so refused none")
            let delivered = await fixture.center.deliveredNotifications().map(\.id)
            #expect(Set(delivered) == Set(ids))
        }
    }

    /// A server not known to refuse repeats is not second-guessed: its refusal reaches the poster as the server
    /// gave it, with nothing shown.
    @Test func anUnknownServersRefusalReachesThePoster() async throws {
        var strict = NotificationServerProfile.dunst
        strict.refusesRepeatsWithin = .seconds(60)
        try await BridgeFixture.with(strict) { fixture in
            _ = try await fixture.post(BridgeFixture.content())
            let error = await #expect(throws: DBusFailure.self) {
                try await fixture.center.post(BridgeFixture.content())
            }
            #expect(error?.name == NotificationServer.excessNotificationGenerationErrorName)
            #expect(await fixture.server.notifications.count == 1)
        }
    }

    /// Each known server's refusal of repeats and its activation tokens are read from its name and version, as the
    /// profile of each describes the server it mirrors; `doctor` names both quirks where they apply.
    @Test(arguments: NotificationServerProfile.presets.map(\.name))
    func repeatsAndTokensAreReadFromTheServersName(_ preset: String) throws {
        let profile = try #require(NotificationServerProfile.preset(named: preset))
        let info = NotificationServerInfo(
            name: profile.serverName, vendor: profile.vendor, version: profile.version,
            specVersion: profile.specVersion, capabilities: Set(profile.capabilities))
        #expect(info.refusesRepeatsWithin == profile.refusesRepeatsWithin)
        #expect(info.quirkNotes.contains { $0.contains("refuses a notification identical") } == (preset == "plasma"))
        // GNOME Shell 43 (Debian 12) sent no token at all; 46 and 48 only for an installed app's desktop entry.
        let gnome = preset == "gnome-shell"
        #expect(info.sendsActivationTokenOnlyForInstalledApps == gnome)
        #expect(info.quirkNotes.contains { $0.contains("activation token only when") } == gnome)
        #expect(info.sendsNoActivationToken == (preset == "gnome-shell-43"))
        #expect(info.quirkNotes.contains { $0.contains("no activation token") } == (preset == "gnome-shell-43"))
    }

    /// The bridge knows which servers group notifications by app (and so leaves a thread's notifications to them) from
    /// the server's name, as each profile describes the server it mirrors.
    @Test(arguments: NotificationServerProfile.presets.map(\.name))
    func groupingByAppIsReadFromTheServersName(_ preset: String) throws {
        let profile = try #require(NotificationServerProfile.preset(named: preset))
        let info = NotificationServerInfo(
            name: profile.serverName, vendor: profile.vendor, version: profile.version,
            specVersion: profile.specVersion, capabilities: Set(profile.capabilities))
        #expect(info.groupsByApp == profile.groupsByApp)
        #expect(info.quirkNotes.contains { $0.contains("groups notifications by app") } == profile.groupsByApp)
    }
}
