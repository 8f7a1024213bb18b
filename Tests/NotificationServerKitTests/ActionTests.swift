import DBusCore
import DBusTestSupport
import NotificationServerKit
import Testing

/// What clients see when the user clicks.
@Suite struct ActionTests {
    @Test(arguments: allPresets)
    func notifySendWaitPrintsTheInvokedAction(_ preset: NamedProfile) async throws {
        try await ServerFixture.with(preset.profile) { fixture in
            let environment = fixture.environment
            async let waiting = ProcessRunner.run(
                ["notify-send", "--action=yes=Yes", "--action=no=No", "--wait", "Proceed?"], environment: environment,
                timeout: .seconds(15))
            let notification = try await fixture.events.nextNotified()
            #expect(notification.actions == [.init(key: "yes", label: "Yes"), .init(key: "no", label: "No")])
            try await fixture.server.invokeAction(id: notification.id, key: "yes")
            let result = try await waiting
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.output == "yes")
            #expect(await fixture.server.notifications.isEmpty)
        }
    }

    /// The client always gets the signals; a bystander gets them only from a server that broadcasts.
    @Test(arguments: allPresets)
    func actionSignalsReachTheSenderOrEveryone(_ preset: NamedProfile) async throws {
        let profile = preset.profile
        try await ServerFixture.with(profile) { fixture in
            let id = try await fixture.notify(summary: "Build finished", actions: ["default", "Open", "logs", "Logs"])
            try await fixture.server.invokeAction(id: id, key: "logs", activationToken: "token-42")
            try fixture.sendSentinel()

            var expected: [SeenSignal] = []
            if profile.sendsActivationTokenBeforeAction { expected.append(.token(id, "token-42")) }
            expected.append(.action(id, "logs"))
            if let reason = profile.closeAfterAction {
                expected.append(.closed(id, reason))
                if profile.repeatsNotificationClosed { expected.append(.closed(id, .dismissed)) }
            }

            #expect(try await fixture.clientSignals.untilSentinel() == expected)
            let bystanderSaw = try await fixture.bystanderSignals.untilSentinel()
            #expect(bystanderSaw == (profile.signalDelivery == .broadcast ? expected : []))
            // A server that leaves it up after an action (mako) keeps it until the client closes it.
            #expect(await (fixture.server.notification(id: id) == nil) == (profile.closeAfterAction != nil))
        }
    }

    @Test func aResidentNotificationStaysAfterAnAction() async throws {
        try await ServerFixture.with(.gnomeShell) { fixture in
            let id = try await fixture.notify(
                summary: "Call", actions: ["answer", "Answer"], hints: ["resident": .boolean(true)])
            try await fixture.server.invokeAction(id: id, key: "answer", activationToken: "t")
            try fixture.sendSentinel()
            #expect(try await fixture.clientSignals.untilSentinel() == [.token(id, "t"), .action(id, "answer")])
            #expect(await fixture.server.notification(id: id) != nil)
        }
    }

    @Test func aServerThatLeavesItUpSendsNoClose() async throws {
        var profile = NotificationServerProfile.dunst
        profile.closeAfterAction = nil
        try await ServerFixture.with(profile) { fixture in
            let id = try await fixture.notify(summary: "Stay", actions: ["ok", "OK"])
            try await fixture.server.invokeAction(id: id, key: "ok")
            try fixture.sendSentinel()
            #expect(try await fixture.clientSignals.untilSentinel() == [.action(id, "ok")])
            #expect(await fixture.server.notification(id: id) != nil)
        }
    }

    @Test func budgieSendsAnExtraDefaultAfterAButton() async throws {
        var profile = NotificationServerProfile.xfce4Notifyd
        profile.extraDefaultAfterButton = true
        try await ServerFixture.with(profile) { fixture in
            let id = try await fixture.notify(summary: "Budgie", actions: ["default", "Open", "reply", "Reply"])
            try await fixture.server.invokeAction(id: id, key: "reply")
            try fixture.sendSentinel()
            #expect(
                try await fixture.clientSignals.untilSentinel()
                    == [.action(id, "reply"), .action(id, "default"), .closed(id, .dismissed)])
        }
    }

    @Test func aGeneratedTokenIsUniquePerAction() async throws {
        try await ServerFixture.with(.plasma) { fixture in
            let first = try await fixture.notify(summary: "one", actions: ["a", "A"])
            let second = try await fixture.notify(summary: "two", actions: ["a", "A"])
            try await fixture.server.invokeAction(id: first, key: "a")
            try await fixture.server.invokeAction(id: second, key: "a")
            try fixture.sendSentinel()
            let tokens = try await fixture.clientSignals.untilSentinel().filter { $0.member == "ActivationToken" }
            #expect(tokens.count == 2)
            #expect(Set(tokens.map { $0.arguments[1] }).count == 2)
        }
    }

    @Test func userActionsThatCannotHappenThrowClearErrors() async throws {
        try await ServerFixture.with(.gnomeShell) { fixture in
            let server = fixture.server
            let id = try await fixture.notify(
                summary: "Many", actions: ["default", "Open", "a", "A", "b", "B", "c", "C", "d", "D"])
            await #expect(throws: NotificationServerError.unknownNotification(id: 999)) {
                try await server.invokeAction(id: 999, key: "a")
            }
            await #expect(
                throws: NotificationServerError.unknownAction(
                    id: id, key: "zzz", available: ["default", "a", "b", "c", "d"])
            ) {
                try await server.invokeAction(id: id, key: "zzz")
            }
            // GNOME Shell shows three buttons: the fourth cannot be clicked; the body click still works.
            await #expect(throws: NotificationServerError.actionNotShown(id: id, key: "d", maximumButtons: 3)) {
                try await server.invokeAction(id: id, key: "d")
            }
            await #expect(throws: NotificationServerError.inlineReplyUnsupported(server: "gnome-shell")) {
                try await server.reply(id: id, text: "hi")
            }
            try await server.invokeAction(id: id, key: "default")
            await #expect(throws: NotificationServerError.unknownNotification(id: id)) {
                try await server.invokeAction(id: id, key: "default")
            }
            #expect(String(describing: NotificationServerError.unknownNotification(id: 7)).contains("id 7"))
        }
    }
}
