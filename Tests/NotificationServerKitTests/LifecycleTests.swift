import DBusCore
import DBusTestSupport
import NotificationServerKit
import Testing

/// Replacing, expiring and closing.
@Suite struct LifecycleTests {
    private static var newIDProfile: NotificationServerProfile {
        var profile = NotificationServerProfile.mako
        profile.newIDOnReplace = true
        return profile
    }

    @Test(arguments: [
        (NamedProfile(name: "plasma", profile: .plasma), false),
        (NamedProfile(name: "new-id", profile: newIDProfile), true),
    ])
    func notifySendReplaceKeepsOrChangesTheID(_ preset: NamedProfile, _ changesID: Bool) async throws {
        try await ServerFixture.with(preset.profile) { fixture in
            let first = try await runClient(["notify-send", "--print-id", "Downloading", "10%"], on: fixture)
            let id = try #require(UInt32(first.output), "\(first.standardError)")
            let second = try await runClient(
                ["notify-send", "--print-id", "--replace-id=\(id)", "Downloading", "90%"], on: fixture)
            let newID = try #require(UInt32(second.output), "\(second.standardError)")
            #expect((newID != id) == changesID)

            let notifications = await fixture.server.notifications
            #expect(notifications.map(\.id) == [newID])
            #expect(notifications.first?.body == "90%")
            #expect(notifications.first?.replacesID == id)

            _ = try await fixture.events.nextNotified()
            let replaced = try await fixture.events.next("the replacement") {
                if case .replaced = $0 { return true }
                return false
            }
            guard case .replaced(let previous, let current) = replaced else { return }
            #expect(previous.id == id && previous.body == "10%")
            #expect(current.id == newID && current.body == "90%")
        }
    }

    @Test func replacingAClosedNotificationMakesANewOne() async throws {
        try await ServerFixture.with(.dunst) { fixture in
            let id = try await fixture.notify(summary: "first")
            try await fixture.server.dismiss(id: id)
            let again = try await fixture.notify(replacing: id, summary: "second")
            #expect(again != id)
            #expect(await fixture.server.notifications.map(\.summary) == ["second"])
        }
    }

    @Test func aShortTimeoutExpiresWithReason1() async throws {
        try await ServerFixture.with(.mako) { fixture in
            let id = try await fixture.notify(summary: "brief", timeout: 50)
            let (expired, reason) = try await fixture.events.nextClosed(within: .seconds(5))
            #expect(expired.id == id && reason == .expired)
            try fixture.sendSentinel()
            #expect(try await fixture.clientSignals.untilSentinel() == [.closed(id, .expired)])
            #expect(await fixture.server.notifications.isEmpty)
        }
    }

    @Test func theServerDefaultAppliesToMinusOneAndNeverToZero() async throws {
        var profile = NotificationServerProfile.dunst
        profile.defaultTimeout = .milliseconds(60)
        try await ServerFixture.with(profile) { fixture in
            let forever = try await fixture.notify(summary: "sticky", timeout: 0)
            let byDefault = try await fixture.notify(summary: "default", timeout: -1)
            let (expired, reason) = try await fixture.events.nextClosed(within: .seconds(5))
            #expect(expired.id == byDefault && reason == .expired)
            #expect(await fixture.server.notifications.map(\.id) == [forever])
        }
    }

    @Test func gnomeShellIgnoresTheClientsTimeout() async throws {
        var profile = NotificationServerProfile.gnomeShell
        profile.defaultTimeout = .milliseconds(40)
        try await ServerFixture.with(profile) { fixture in
            // Asked never to expire; GNOME Shell ignores that, so the server default applies.
            let id = try await fixture.notify(summary: "ignored", timeout: 0)
            let (expired, reason) = try await fixture.events.nextClosed(within: .seconds(5))
            #expect(expired.id == id && reason == .expired)
        }
    }

    @Test func replacingRestartsTheTimer() async throws {
        try await ServerFixture.with(.dunst) { fixture in
            // v1's timer would fire first; the replacement asks for none, so the other one expires first.
            let id = try await fixture.notify(summary: "v1", timeout: 300)
            try await fixture.notify(replacing: id, summary: "v2", timeout: 0)
            let other = try await fixture.notify(summary: "other", timeout: 600)
            let (expired, _) = try await fixture.events.nextClosed(within: .seconds(5))
            #expect(expired.id == other, "the replaced notification asked for no timeout")
            #expect(await fixture.server.notifications.map(\.summary) == ["v2"])

            // And a replacement that asks for a timeout gets one.
            try await fixture.notify(replacing: id, summary: "v3", timeout: 20)
            let (replacedThenExpired, reason) = try await fixture.events.nextClosed(within: .seconds(5))
            #expect(replacedThenExpired.id == id && replacedThenExpired.summary == "v3" && reason == .expired)
        }
    }

    @Test func notificationDaemonExpiresOnlyTransientNotifications() async throws {
        try await ServerFixture.with(.notificationDaemon) { fixture in
            let kept = try await fixture.notify(summary: "kept")
            let transient = try await fixture.notify(summary: "transient", hints: ["transient": .boolean(true)])
            #expect(try await !fixture.server.expire(id: kept))
            #expect(try await fixture.server.expire(id: transient))
            try fixture.sendSentinel()
            #expect(try await fixture.clientSignals.untilSentinel() == [.closed(transient, .expired)])
            #expect(await fixture.server.notifications.map(\.id) == [kept])
        }
    }

    @Test(arguments: allPresets)
    func closeNotificationEmitsReason3(_ preset: NamedProfile) async throws {
        try await ServerFixture.with(preset.profile) { fixture in
            let id = try await fixture.notify(summary: "to close")
            _ = try await fixture.call("CloseNotification", [.uint32(id)])
            let (closed, reason) = try await fixture.events.nextClosed()
            #expect(closed.id == id && reason == .closedByCall)
            try fixture.sendSentinel()
            // SwayNotificationCenter 0.7.3 follows it with a second one, reason 2.
            let expected: [SeenSignal] =
                preset.profile.repeatsNotificationClosed
                ? [.closed(id, .closedByCall), .closed(id, .dismissed)] : [.closed(id, .closedByCall)]
            #expect(try await fixture.clientSignals.untilSentinel() == expected)

            // Closing it again: real servers answer success and send nothing.
            _ = try await fixture.call("CloseNotification", [.uint32(id)])
            try fixture.sendSentinel()
            #expect(try await fixture.clientSignals.untilSentinel() == [])
        }
    }

    @Test func unknownIDsAreRefusedOnlyWhereTheProfileSays() async throws {
        try await ServerFixture.with(.notificationDaemon) { fixture in
            let error = await #expect(throws: DBusFailure.self) {
                try await fixture.call("CloseNotification", [.uint32(0)])
            }
            #expect(error?.name == NotificationServer.invalidIDErrorName)
            _ = try await fixture.call("CloseNotification", [.uint32(12345)])
        }
        var strict = NotificationServerProfile.fullFeatured
        strict.unknownIDOnClose = .refuse
        try await ServerFixture.with(strict) { fixture in
            let result = try await gdbusCall("CloseNotification", ["12345"], on: fixture)
            #expect(result.status != 0)
            #expect(result.standardError.contains(NotificationServer.invalidIDErrorName))
        }
    }

    @Test func dismissSendsReason2() async throws {
        try await ServerFixture.with(.dunst) { fixture in
            let id = try await fixture.notify(summary: "dismiss me")
            try await fixture.server.dismiss(id: id)
            try fixture.sendSentinel()
            #expect(try await fixture.clientSignals.untilSentinel() == [.closed(id, .dismissed)])
        }
    }
}
