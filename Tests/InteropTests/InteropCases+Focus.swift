import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import Testing

/// A focus mode of the bridge and the desktop's own switch hold together on a real server: the mode turned on while
/// the switch is off holds what it does not let through and shows what it does; the switch turned on while the mode
/// lets an app through holds that app's notifications all the same; the mode turned off while the switch is on shows
/// nothing, and the switch turned off then shows everything that waited, in the order it came.
extension InteropRun {
    func focusWithDesktopSwitch() async throws {
        let connection = try await bus.connect()
        defer { Task { await connection.close() } }
        var inhibition: UInt32?
        func send(_ arguments: [String]) async throws -> String {
            let sent = try await cli(["send"] + arguments + ["--timeout", "0", "--print-id"])
            expectations.check(sent.status == 0, "send \(arguments) exited \(sent.status): \(sent.standardError)")
            return sent.output.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        let on = try await cli(["focus", "on", "sleep", "--allow-app", "Doorbell"])
        expectations.check(on.status == 0, "focus on exited \(on.status): \(on.standardError)")
        let held = try await send(["Gus", "Waits for the morning"])
        let passed = try await send(["Ivy", "At the door", "--app-name", "Doorbell"])
        var pending = try await listed(BridgeMethod.listPending, connection)
        expectations.check(pending.contains(held), "'Gus' is not held while the mode is on and the switch off")
        expectations.check(
            try await listed(BridgeMethod.listDelivered, connection).contains(passed),
            "'Ivy' of the app the mode lets through was not shown")

        try await setDoNotDisturb(true, connection: connection, inhibition: &inhibition)
        // mako announces no change of its modes: the daemon reads them when something is posted, not before.
        if server.pointer != .makoctl { try await awaitDaemonDoNotDisturb(true, connection) }
        let heldBySwitch = try await send(["Kim", "Rang twice", "--app-name", "Doorbell"])
        pending = try await listed(BridgeMethod.listPending, connection)
        expectations.check(
            pending.contains(heldBySwitch), "'Kim' is not held by the desktop's switch though the mode lets it through")

        let off = try await cli(["focus", "off"])
        expectations.check(off.status == 0, "focus off exited \(off.status): \(off.standardError)")
        pending = try await listed(BridgeMethod.listPending, connection)
        expectations.check(
            pending.contains(held) && pending.contains(heldBySwitch),
            "with the mode off and the switch on, both still wait: \(pending)")

        try await setDoNotDisturb(false, connection: connection, inhibition: &inhibition)
        try await withTimeout(.seconds(20), waitingFor: "'Gus' and 'Kim' to be shown once nothing holds them") {
            while true {
                let delivered = try await self.listed(BridgeMethod.listDelivered, connection)
                if delivered.contains(held) && delivered.contains(heldBySwitch) { return }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        for id in [held, passed, heldBySwitch] { _ = try await cli(["withdraw", id]) }
    }
}
