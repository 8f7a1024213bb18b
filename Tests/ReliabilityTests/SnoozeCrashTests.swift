import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationServerKit
import Testing

extension Reliability {
    /// A snoozed notification waits in the store like a scheduled one: a `kill -9` of the daemon while it is put off
    /// loses nothing.
    @Suite("snooze across a crash")
    struct SnoozeCrashTests {
        static let reminders: [String: DBusValue] = [FilterKeys.appName.name: .string("Reminders")]

        @Test(
            "killed during a snooze, the daemon shows it again after a restart, once, and its answer reaches the poster"
        )
        func killDuringSnooze() async throws {
            try await DaemonRig.with { rig in
                var daemon = try await rig.startDaemon()
                defer { daemon.stop() }
                let done = DBusValue.array(
                    element: "a{sv}",
                    [.vardict([ActionKeys.id.name: .string("done"), ActionKeys.title.name: .string("Done")])])
                try await rig.call(
                    BridgeMethod.registerCategory.name,
                    [
                        .string("reminder"), done,
                        .vardict([CategoryOptionKeys.snooze.name: .array(element: "i", [.int32(3)])]),
                    ])
                let poster = try await rig.bus.connect()
                defer { Task { await poster.close() } }
                let signals = try await poster.signals(
                    matching: DBusMatchRule(
                        sender: BridgeAPI.busName, path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName,
                        member: BridgeSignal.responded.name))
                let id = try await rig.post(
                    [
                        PostKeys.title.name: .string("Call Ann"), PostKeys.category.name: .string("reminder"),
                        PostKeys.appName.name: .string("Reminders"),
                    ], from: poster)
                let shown = try await rig.nextNotification()
                try await rig.server.invokeAction(id: shown.id, key: "snooze:3")
                try await withTimeout(waitingFor: "the snoozed notification to leave the server") {
                    for await event in rig.events {
                        if case .closed(let closed, _) = event, closed.id == shown.id { return }
                    }
                }
                // Listed once the store has it: the snooze is on disk before the daemon dies. (The server closes the
                // notification as soon as the button is pressed, a moment before the daemon handles the press.)
                try await withTimeout(.seconds(30), waitingFor: "the snoozed notification to be listed as pending") {
                    while try await !rig.pendingIDs(Self.reminders).contains(id) {
                        try await Task.sleep(for: .milliseconds(50))
                    }
                }
                daemon.signal(SIGKILL)
                #expect(await daemon.wait(within: .seconds(10)) == 128 + SIGKILL)

                daemon = try await rig.startDaemon()
                let back = try await rig.nextNotification(within: .seconds(30))
                #expect(back.summary == "Call Ann")
                #expect(back.actions.map(\.key) == ["done", "snooze:3"])
                try await rig.server.invokeAction(id: back.id, key: "done")
                let responded = try await signals.first(within: .seconds(30), waitingFor: "Responded after the restart")
                #expect(responded.arguments.prefix(2) == [.string(id), .string("done")], "log: \(rig.logText)")
                // Once: given the time to come back again, it does not; the next notification is the marker.
                try await Task.sleep(for: .seconds(4))
                _ = try await rig.post([PostKeys.title.name: .string("marker")])
                #expect(try await rig.nextNotification().summary == "marker")
                #expect(try await rig.pendingIDs(Self.reminders).isEmpty)
            }
        }
    }
}
