import DBusCore
import DBusTestSupport
import NotificationBridge
import NotificationBridgeAPI
import NotificationModel
import NotificationServerKit
import Synchronization
import Testing

@testable import NotificationBridgeDaemon

/// The desktop's do-not-disturb as the daemon follows it, with the switch fed by the test (no real server): what
/// waits, what goes through, what is dropped, and what apps are told.
@Suite("Desktop do-not-disturb")
struct DesktopDoNotDisturbTests {
    /// A desktop switch the test turns on and off.
    final class FedSwitch: DesktopDoNotDisturbWatching {
        private let stream: AsyncStream<DesktopDoNotDisturb>
        private let sink: AsyncStream<DesktopDoNotDisturb>.Continuation

        init(on: Bool) {
            (stream, sink) = AsyncStream.makeStream()
            set(on: on)
        }

        func states() -> AsyncStream<DesktopDoNotDisturb> { stream }

        func set(on: Bool) { sink.yield(DesktopDoNotDisturb(source: .dunst, isOn: on)) }
    }

    static func notification(_ title: String, _ extra: [String: DBusValue] = [:]) -> [String: DBusValue] {
        [PostKeys.title.name: .string(title), PostKeys.appName.name: .string("Chat")].merging(extra) { $1 }
    }

    static let critical = [PostKeys.urgency.name: DBusValue.string("critical")]

    /// The titles of the notifications `ListPending` lists as held, in order.
    static func heldTitles(_ fixture: DaemonFixture) async throws -> [String] {
        let listed = try await fixture.call(
            BridgeMethod.listPending.name, [.vardict([FilterKeys.appName.name: .string("Chat")])])
        guard case .array(_, let items)? = listed.first else { return [] }
        return items.compactMap { item -> String? in
            guard let entries = WireEntries(item), entries[ListedKeys.held] == true else { return nil }
            return entries[PostKeys.title]
        }
    }

    /// The daemon's `DesktopDoNotDisturb` property.
    static func property(_ fixture: DaemonFixture) async throws -> DesktopDoNotDisturbState? {
        let reply = try await fixture.client.call(
            destination: BridgeAPI.busName, path: BridgeAPI.objectPath, interface: "org.freedesktop.DBus.Properties",
            method: "Get",
            arguments: [.string(BridgeAPI.interfaceName), .string(BridgeProperty.desktopDoNotDisturb.name)])
        return reply.first.flatMap { DesktopDoNotDisturbState($0.unwrappedVariant) }
    }

    /// Waits until the daemon's property says the fed switch is on: what it holds back from then on is decided.
    static func awaitSwitchOn(_ fixture: DaemonFixture) async throws {
        try await withTimeout(waitingFor: "the property to say the switch is on") {
            while try await property(fixture) != DesktopDoNotDisturbState(isOn: true, source: "dunst") {
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    @Test(
        "while the switch is on, notifications wait, listed in order; a critical one goes through; off shows them once, in order"
    )
    func heldThenShownInOrder() async throws {
        let desktop = FedSwitch(on: true)
        try await DaemonFixture.with(doNotDisturb: desktop) { fixture in
            let changes = try await fixture.client.signals(
                matching: BridgeProxy.signals([.desktopDoNotDisturbChanged])
            ) { BridgeEvent($0) }
            try await Self.awaitSwitchOn(fixture)
            for title in ["Ann", "Bob", "Cy"] { _ = try await fixture.post(Self.notification(title)) }
            #expect(try await Self.heldTitles(fixture) == ["Ann", "Bob", "Cy"])

            // Nothing of the held ones reached the server before the critical one, which is not held.
            _ = try await fixture.post(Self.notification("fire alarm", Self.critical))
            #expect(try await fixture.nextNotification().summary == "fire alarm")
            #expect(try await Self.heldTitles(fixture) == ["Ann", "Bob", "Cy"])

            desktop.set(on: false)
            var shown: [String] = []
            for _ in 0..<3 { shown.append(try await fixture.nextNotification().summary) }
            #expect(shown == ["Ann", "Bob", "Cy"])
            #expect(try await Self.heldTitles(fixture).isEmpty)
            // Shown once: the next thing the server gets is the next post.
            _ = try await fixture.post(Self.notification("after"))
            #expect(try await fixture.nextNotification().summary == "after")

            let announced = try await withTimeout(waitingFor: "DesktopDoNotDisturbChanged off") {
                for await event in changes {
                    if case .desktopDoNotDisturbChanged(let state) = event, !state.isOn { return state }
                }
                throw TestSupportError("the connection closed")
            }
            #expect(announced == DesktopDoNotDisturbState(isOn: false, source: "dunst"))
            #expect(try await Self.property(fixture) == DesktopDoNotDisturbState(isOn: false, source: "dunst"))
        }
    }

    @Test(
        "the level decides: passive and active wait, time-sensitive only where allowed for the app, critical passes")
    func levelsDecide() async throws {
        let desktop = FedSwitch(on: true)
        try await DaemonFixture.with(doNotDisturb: desktop) { fixture in
            try await Self.awaitSwitchOn(fixture)
            let levels: [NotificationInterruptionLevel] = [.passive, .active, .timeSensitive, .critical]
            for level in levels {
                _ = try await fixture.post(
                    Self.notification(level.name, [PostKeys.interruptionLevel.name: .string(level.name)]))
            }
            // The same permission as for the bridge's own do-not-disturb: off by default, so it waits too.
            #expect(try await fixture.nextNotification().summary == NotificationInterruptionLevel.critical.name)
            #expect(try await Self.heldTitles(fixture) == levels.dropLast().map(\.name))
            try await fixture.call(
                BridgeMethod.setSettings.name,
                [.string("Chat"), .vardict([SettingsKeys.timeSensitive.name: .boolean(true)])])
            _ = try await fixture.post(
                Self.notification("let through", [PostKeys.interruptionLevel.name: .string(levels[2].name)]))
            #expect(try await fixture.nextNotification().summary == "let through", "allowed for the app, it passes")
            desktop.set(on: false)
            for level in levels.dropLast() {
                #expect(try await fixture.nextNotification().summary == level.name)
            }
        }
    }

    @Test("a post that says if-do-not-disturb 'drop' ends at once, its poster told with Closed reason 5")
    func dropped() async throws {
        let desktop = FedSwitch(on: true)
        try await DaemonFixture.with(doNotDisturb: desktop) { fixture in
            let closes = try await fixture.client.signals(matching: BridgeProxy.signals([.closed])) { BridgeEvent($0) }
            try await withTimeout(waitingFor: "the switch to be on") {
                while try await Self.property(fixture)?.isOn != true { try await Task.sleep(for: .milliseconds(20)) }
            }
            let id = try await fixture.post(
                Self.notification("stale news", [PostKeys.ifDoNotDisturb.name: .string("drop")]))
            let reason = try await withTimeout(waitingFor: "Closed for the dropped notification") {
                for await event in closes {
                    if case .closed(id, let reason) = event { return reason }
                }
                throw TestSupportError("the connection closed")
            }
            #expect(reason == .droppedWhileDoNotDisturb)
            #expect(try await Self.heldTitles(fixture).isEmpty)
            desktop.set(on: false)
            _ = try await fixture.post(Self.notification("fresh news"))
            #expect(try await fixture.nextNotification().summary == "fresh news")
        }
    }

    @Test("a held notification withdrawn is never shown; one replaced shows its replacement, in its place")
    func withdrawnAndReplacedWhileHeld() async throws {
        let desktop = FedSwitch(on: true)
        try await DaemonFixture.with(doNotDisturb: desktop) { fixture in
            try await withTimeout(waitingFor: "the switch to be on") {
                while try await Self.property(fixture)?.isOn != true { try await Task.sleep(for: .milliseconds(20)) }
            }
            let withdrawn = try await fixture.post(Self.notification("withdrawn"))
            let replaced = try await fixture.post(Self.notification("draft"))
            _ = try await fixture.post(Self.notification("last"))
            try await fixture.call(BridgeMethod.withdraw.name, [.string(withdrawn)])
            let replacement = try await fixture.post(
                Self.notification("final", [PostKeys.replaces.name: .string(replaced)]))
            #expect(replacement == replaced)
            #expect(try await Self.heldTitles(fixture) == ["final", "last"])

            desktop.set(on: false)
            #expect(try await fixture.nextNotification().summary == "final")
            #expect(try await fixture.nextNotification().summary == "last")
            _ = try await fixture.post(Self.notification("after"))
            #expect(try await fixture.nextNotification().summary == "after")
        }
    }

    @Test("a held notification survives a restart of the daemon, and is shown once the switch is off")
    func heldAcrossRestart() async throws {
        try await withPrivateBus { bus in
            let serverConnection = try await bus.connect()
            let server = NotificationServer()
            let events = server.events()
            try await server.start(on: serverConnection, profile: NotificationServerProfile.fullFeatured)
            async let serverRunning: Void = server.run()
            let result = await outcome {
                try await DaemonFixture.run(
                    bus: bus, server: server, events: events, doNotDisturb: FedSwitch(on: true)
                ) { fixture in
                    try await withTimeout(waitingFor: "the switch to be on") {
                        while try await Self.property(fixture)?.isOn != true {
                            try await Task.sleep(for: .milliseconds(20))
                        }
                    }
                    _ = try await fixture.post(Self.notification("kept"))
                }
                let desktop = FedSwitch(on: true)
                try await DaemonFixture.run(bus: bus, server: server, events: events, doNotDisturb: desktop) {
                    fixture in
                    try await withTimeout(waitingFor: "the held notification to be held again") {
                        while try await Self.heldTitles(fixture) != ["kept"] {
                            try await Task.sleep(for: .milliseconds(20))
                        }
                    }
                    desktop.set(on: false)
                    #expect(try await fixture.nextNotification().summary == "kept")
                }
            }
            await serverConnection.close()
            await serverRunning
            try result.get()
        }
    }

    @Test("a scheduled notification that comes due while the switch is on waits, or is dropped when it says so")
    func scheduledWhileOn() async throws {
        let desktop = FedSwitch(on: true)
        try await DaemonFixture.with(doNotDisturb: desktop) { fixture in
            let closes = try await fixture.client.signals(matching: BridgeProxy.signals([.closed])) { BridgeEvent($0) }
            try await withTimeout(waitingFor: "the switch to be on") {
                while try await Self.property(fixture)?.isOn != true { try await Task.sleep(for: .milliseconds(20)) }
            }
            let dropped = try await fixture.post(
                Self.notification(
                    "Reminder nobody needs",
                    [PostKeys.delay.name: .double(0.05), PostKeys.ifDoNotDisturb.name: .string("drop")]))
            _ = try await fixture.post(Self.notification("Tea", [PostKeys.delay.name: .double(0.05)]))
            let reason = try await withTimeout(waitingFor: "Closed for the dropped scheduled notification") {
                for await event in closes {
                    if case .closed(dropped, let reason) = event { return reason }
                }
                throw TestSupportError("the connection closed")
            }
            #expect(reason == .droppedWhileDoNotDisturb)
            try await withTimeout(waitingFor: "the scheduled notification to come due and be held") {
                while try await Self.heldTitles(fixture) != ["Tea"] { try await Task.sleep(for: .milliseconds(20)) }
            }
            desktop.set(on: false)
            #expect(try await fixture.nextNotification().summary == "Tea")
        }
    }
}
