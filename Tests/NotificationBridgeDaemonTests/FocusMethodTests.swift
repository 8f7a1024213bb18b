import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationServerKit
import Testing

@testable import NotificationBridgeDaemon

/// The user turns focus modes on and off over the bus: in force at once, and only from the host.
@Suite("Focus modes turned on and off over the bus")
struct FocusMethodTests {
    @Test("a mode turned on holds an app it does not let through and passes one it does; turned off, it shows the held")
    func onThenOff() async throws {
        try await DaemonFixture.with(doNotDisturb: DesktopDoNotDisturbTests.FedSwitch(on: false)) { fixture in
            try await fixture.call(
                BridgeMethod.turnOnFocus.name,
                [.string("work"), FocusRequest(name: "work", apps: ["Doorbell"], end: .after(seconds: 3600)).options])
            let focus = try #require(try await FocusRestoreTests.activeFocus(fixture))
            #expect(focus.name == "work" && focus.cause == "manual", "ActiveFocus says the mode is on, by hand")
            #expect(focus.until != nil, "and that it ends by itself")

            _ = try await fixture.post(FocusRestoreTests.notification("New mail", app: "Mail"))
            #expect(try await FocusRestoreTests.heldTitles(fixture, app: "Mail") == ["New mail"])
            _ = try await fixture.post(FocusRestoreTests.notification("Someone at the door", app: "Doorbell"))
            #expect(
                try await fixture.nextNotification().summary == "Someone at the door",
                "the app the mode lets through is shown, and the held mail is not")

            try await fixture.call(BridgeMethod.turnOffFocus.name)
            #expect(try await fixture.nextNotification().summary == "New mail", "shown once the mode is off")
            #expect(try await FocusRestoreTests.heldTitles(fixture, app: "Mail").isEmpty)
            #expect(try await FocusRestoreTests.activeFocus(fixture) == ActiveFocusState.none)
        }
    }

    @Test("a mode letting one conversation through holds the others; turned on again, its new rules count at once")
    func threadThenApp() async throws {
        try await DaemonFixture.with(doNotDisturb: DesktopDoNotDisturbTests.FedSwitch(on: false)) { fixture in
            let ann = FocusRequest.Thread(app: "Chat", id: "ann")
            try await fixture.call(
                BridgeMethod.turnOnFocus.name, [.string("sleep"), FocusRequest(name: "sleep", threads: [ann]).options])
            func message(_ title: String, thread: String) -> [String: DBusValue] {
                FocusRestoreTests.notification(title, app: "Chat").merging([PostKeys.thread.name: .string(thread)]) {
                    $1
                }
            }
            _ = try await fixture.post(message("From Bob", thread: "bob"))
            _ = try await fixture.post(message("From Ann", thread: "ann"))
            #expect(try await fixture.nextNotification().summary == "From Ann", "Ann's conversation passes, Bob's not")
            #expect(try await FocusRestoreTests.heldTitles(fixture, app: "Chat") == ["From Bob"])

            try await fixture.call(
                BridgeMethod.turnOnFocus.name, [.string("sleep"), FocusRequest(name: "sleep", apps: ["Chat"]).options])
            #expect(
                try await fixture.nextNotification().summary == "From Bob",
                "what the mode held and now lets through is shown at once")
            #expect(try await FocusRestoreTests.heldTitles(fixture, app: "Chat").isEmpty)
            let focus = try await FocusRestoreTests.activeFocus(fixture)
            #expect(focus?.name == "sleep" && focus?.until == nil, "still on, until turned off")
        }
    }

    @Test("a notification a mode now lets through is shown though one held before it still waits")
    func releasePassesStillHeld() async throws {
        try await DaemonFixture.with(doNotDisturb: DesktopDoNotDisturbTests.FedSwitch(on: false)) { fixture in
            try await fixture.call(
                BridgeMethod.turnOnFocus.name, [.string("sleep"), FocusRequest(name: "sleep").options])
            _ = try await fixture.post(FocusRestoreTests.notification("New mail", app: "Mail"))
            _ = try await fixture.post(FocusRestoreTests.notification("From Bob", app: "Chat"))
            #expect(try await FocusRestoreTests.heldTitles(fixture, app: "Chat") == ["From Bob"])

            try await fixture.call(
                BridgeMethod.turnOnFocus.name, [.string("sleep"), FocusRequest(name: "sleep", apps: ["Chat"]).options])
            #expect(
                try await fixture.nextNotification().summary == "From Bob",
                "the chat the mode now lets through is shown, not left behind the mail it still holds")
            #expect(try await FocusRestoreTests.heldTitles(fixture, app: "Mail") == ["New mail"])
            #expect(try await FocusRestoreTests.heldTitles(fixture, app: "Chat").isEmpty)
        }
    }

    @Test("a mode turned on for a few seconds ends after them, not at the timer's next minute")
    func forSecondsEndsOnTime() async throws {
        try await DaemonFixture.with(doNotDisturb: DesktopDoNotDisturbTests.FedSwitch(on: false)) { fixture in
            // First on for an hour, so that the daemon's timer, once running, waits its longest before asking again.
            try await fixture.call(
                BridgeMethod.turnOnFocus.name,
                [.string("work"), FocusRequest(name: "work", apps: ["Doorbell"], end: .after(seconds: 3600)).options])
            _ = try await fixture.post(FocusRestoreTests.notification("Someone at the door", app: "Doorbell"))
            #expect(try await fixture.nextNotification().summary == "Someone at the door")
            _ = try await fixture.post(FocusRestoreTests.notification("New mail", app: "Mail"))
            #expect(try await FocusRestoreTests.heldTitles(fixture, app: "Mail") == ["New mail"])

            let start = ContinuousClock.now
            try await fixture.call(
                BridgeMethod.turnOnFocus.name,
                [.string("work"), FocusRequest(name: "work", end: .after(seconds: 3)).options])
            #expect(try await fixture.nextNotification().summary == "New mail")
            let waited = ContinuousClock.now - start
            // The timer sleeps up to a minute when no change is due: this is shown after the 3 seconds, well before.
            #expect(waited >= .seconds(3) && waited < .seconds(30), "shown \(waited) after the mode came on")
            #expect(try await FocusRestoreTests.activeFocus(fixture) == ActiveFocusState.none)
        }
    }

    @Test("a mode turned on over the bus for an hour is still on after a restart of the daemon, with its rules")
    func keptAcrossRestart() async throws {
        try await withPrivateBus { bus in
            let serverConnection = try await bus.connect()
            let server = NotificationServer()
            let events = server.events()
            try await server.start(on: serverConnection, profile: NotificationServerProfile.fullFeatured)
            async let serverRunning: Void = server.run()
            let result = await outcome {
                var until: Int64?
                try await DaemonFixture.run(
                    bus: bus, server: server, events: events,
                    doNotDisturb: DesktopDoNotDisturbTests.FedSwitch(on: false)
                ) { fixture in
                    let request = FocusRequest(name: "work", apps: ["Doorbell"], end: .after(seconds: 3600))
                    try await fixture.call(BridgeMethod.turnOnFocus.name, [.string("work"), request.options])
                    until = try await FocusRestoreTests.activeFocus(fixture)?.until
                }
                try await DaemonFixture.run(
                    bus: bus, server: server, events: events,
                    doNotDisturb: DesktopDoNotDisturbTests.FedSwitch(on: false)
                ) { fixture in
                    _ = try await fixture.post(FocusRestoreTests.notification("New mail", app: "Mail"))
                    #expect(try await FocusRestoreTests.heldTitles(fixture, app: "Mail") == ["New mail"])
                    _ = try await fixture.post(FocusRestoreTests.notification("Someone at the door", app: "Doorbell"))
                    #expect(try await fixture.nextNotification().summary == "Someone at the door")
                    let focus = try await FocusRestoreTests.activeFocus(fixture)
                    #expect(
                        focus == ActiveFocusState(name: "work", cause: "manual", until: until),
                        "on by hand, with the same end: \(String(describing: focus)), until \(String(describing: until))"
                    )
                }
            }
            await serverConnection.close()
            await serverRunning
            try result.get()
        }
    }

    @Test("an end that has passed, or both for and until, is refused with what to give instead")
    func badEnds() async throws {
        try await DaemonFixture.with { fixture in
            let cases: [(DBusValue, String)] = [
                (FocusRequest(name: "work", end: .at(seconds: 1_000)).options, "has passed"),
                (
                    .vardict([FocusOptionKeys.duration.name: .int64(60), FocusOptionKeys.until.name: .int64(2)]),
                    "give one"
                ),
                (.vardict([FocusOptionKeys.allowThreads.name: .strings(["ann"])]), "APP/THREAD"),
            ]
            for (options, message) in cases {
                let failure = await #expect(throws: DBusFailure.self) {
                    try await fixture.call(BridgeMethod.turnOnFocus.name, [.string("work"), options])
                }
                #expect(failure?.name == BridgeError.invalidArgument.rawValue, "\(failure?.message ?? "")")
                #expect(failure?.message.contains(message) == true, "\(failure?.message ?? "")")
            }
            let active = try await FocusRestoreTests.activeFocus(fixture)
            #expect(active == ActiveFocusState.none, "no mode came on")
        }
    }
}

/// A sandboxed app reads which mode is on but cannot turn one on or off: only the user silences their apps.
@Suite(
    "Sandboxed apps cannot turn focus modes on or off",
    .enabled(if: FlatpakSandbox.unavailableReason == nil, "\(FlatpakSandbox.unavailableReason ?? "")"))
struct SandboxedFocusTests {
    @Test("TurnOnFocus and TurnOffFocus from a Flatpak sandbox are refused with AccessDenied, and no mode comes on")
    func refused() async throws {
        try await DaemonFixture.with { fixture in
            let sandbox = try await FlatpakSandbox.start(
                appID: "org.example.Evil", on: fixture.bus, talk: [BridgeAPI.busName])
            defer { sandbox.stop() }
            let on = try await SandboxedPeerTests.gdbus(sandbox, BridgeMethod.turnOnFocus.name, "'work'", "{}")
            #expect(on.status != 0)
            #expect(on.standardError.contains(BridgeError.accessDenied.rawValue), "\(on.output)")
            #expect(on.standardError.contains("cannot turn on a focus mode"), "\(on.output)")
            let off = try await SandboxedPeerTests.gdbus(sandbox, BridgeMethod.turnOffFocus.name)
            #expect(off.standardError.contains(BridgeError.accessDenied.rawValue), "\(off.output)")
            #expect(try await FocusRestoreTests.activeFocus(fixture) == ActiveFocusState.none)
        }
    }
}
