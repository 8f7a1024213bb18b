import DBusCore
import DBusTestSupport
import NotificationServerKit
import Testing

/// Input real servers disagree about, sent with `gdbus call` as a script would.
@Suite struct MalformedNotifyTests {
    private static let oddActions = "['open', 'Open', 'lonely']"

    private func notifyArguments(actions: String = "[]", hints: String = "{}") -> [String] {
        ["app", "0", "", "Summary", "Body", actions, hints, "-1"]
    }

    @Test(arguments: [
        (NamedProfile(name: "plasma", profile: .plasma), [ServedNotification.Action]()),
        (NamedProfile(name: "dunst", profile: .dunst), [.init(key: "open", label: "Open")]),
        (NamedProfile(name: "gnome-shell", profile: .gnomeShell), [.init(key: "open", label: "Open")]),
    ])
    func anOddActionListIsTrimmedAsTheServerDoes(_ preset: NamedProfile, _ kept: [ServedNotification.Action])
        async throws
    {
        try await ServerFixture.with(preset.profile) { fixture in
            let result = try await gdbusCall("Notify", notifyArguments(actions: Self.oddActions), on: fixture)
            #expect(result.status == 0, "\(result.standardError)")
            let notification = try await fixture.events.nextNotified()
            #expect(notification.actions == kept)
            let call = try #require(await fixture.server.calls.last { $0.member == "Notify" })
            #expect(call.arguments[5] == .strings(["open", "Open", "lonely"]), "the record keeps what was sent")
        }
    }

    @Test func makoRefusesAnOddActionList() async throws {
        try await ServerFixture.with(.mako) { fixture in
            let result = try await gdbusCall("Notify", notifyArguments(actions: Self.oddActions), on: fixture)
            #expect(result.status != 0)
            #expect(result.standardError.contains(DBusFailure.Name.invalidArgs))
            let refused = try await fixture.events.next("the refusal") {
                if case .refused = $0 { return true }
                return false
            }
            guard case .refused(let call, let failure) = refused else { return }
            #expect(call.member == "Notify")
            #expect(failure.message.contains("lonely"))
            #expect(await fixture.server.notifications.isEmpty)
        }
    }

    @Test(arguments: [
        (NamedProfile(name: "dunst", profile: .dunst), UInt8(1)),
        (NamedProfile(name: "mako", profile: .mako), UInt8(2)),
    ])
    func aNonByteUrgencyIsReadAsTheServerReadsIt(_ preset: NamedProfile, _ urgency: UInt8) async throws {
        try await ServerFixture.with(preset.profile) { fixture in
            let result = try await gdbusCall("Notify", notifyArguments(hints: "{'urgency': <2>}"), on: fixture)
            #expect(result.status == 0, "\(result.standardError)")
            let notification = try await fixture.events.nextNotified()
            #expect(notification.hints["urgency"] == .int32(2))
            #expect(notification.urgency == urgency)
        }
    }

    @Test func aStrictProfileRefusesANonByteUrgency() async throws {
        var strict = NotificationServerProfile.dunst
        strict.urgencyHint = .byteRequired
        try await ServerFixture.with(strict) { fixture in
            let refused = try await gdbusCall("Notify", notifyArguments(hints: "{'urgency': <2>}"), on: fixture)
            #expect(refused.status != 0)
            #expect(refused.standardError.contains("must be a byte"), "\(refused.standardError)")
            let accepted = try await gdbusCall("Notify", notifyArguments(hints: "{'urgency': <byte 2>}"), on: fixture)
            #expect(accepted.status == 0, "\(accepted.standardError)")
            #expect(await fixture.server.notifications.map(\.urgency) == [2])
        }
    }

    @Test func plasmaRefusesAnIdenticalNotificationWithinASecond() async throws {
        #expect(NotificationServerProfile.plasma.refusesRepeatsWithin == .seconds(1))
        // The same rule with a window a loaded machine cannot overrun between two calls.
        var profile = NotificationServerProfile.plasma
        profile.refusesRepeatsWithin = .seconds(60)
        try await ServerFixture.with(profile) { fixture in
            try await fixture.notify(summary: "Same", body: "text")
            let error = await #expect(throws: DBusFailure.self) {
                try await fixture.notify(summary: "Same", body: "text")
            }
            #expect(error?.name == NotificationServer.excessNotificationGenerationErrorName)
            try await fixture.notify(summary: "Same", body: "other text")
            #expect(await fixture.server.notifications.count == 2)
        }
    }

    @Test func aWrongSignatureIsRefusedBeforeTheServerSeesIt() async throws {
        try await ServerFixture.with(.dunst) { fixture in
            let error = await #expect(throws: DBusFailure.self) {
                try await fixture.call("Notify", [.string("only the app name")])
            }
            #expect(error?.name == DBusFailure.Name.invalidArgs)
            #expect(await fixture.server.calls.isEmpty)
        }
    }
}
