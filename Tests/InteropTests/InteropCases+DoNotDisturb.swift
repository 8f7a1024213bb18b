import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationModel
import Testing

/// The desktop's do-not-disturb, turned on and off the way its user does (`dunstctl set-paused`, `makoctl mode`, an
/// app's inhibition on Plasma; GNOME's key where the daemon reads it): a notification posted meanwhile waits, a critical
/// one goes through, a time-sensitive one goes through only for the app the user allowed it (`settings APP
/// --time-sensitive on`) and waits for any other, and those that waited are shown once the switch is off.
extension InteropRun {
    /// Whether the harness can turn this server's switch and the daemon can read it there.
    /// - SwayNotificationCenter 0.7.3 under the harness's headless sway turns its do-not-disturb back off at once
    ///   (`ToggleDnd` answers true, `GetDnd` false right after); its reader is the same `GetDnd` call, which answers.
    /// - The harness's GNOME session has no `XDG_CURRENT_DESKTOP` and no dconf service, so the daemon keeps its
    ///   settings in its own file there and does not read GNOME's key; `GNOMEDoNotDisturbTests` follows the key
    ///   through GLib's key-file backend instead.
    var turnsDoNotDisturb: Bool {
        dunst != nil || PlasmaSession.isPlasma(server) || server.pointer == .makoctl
    }

    func doNotDisturb() async throws {
        let connection = try await bus.connect()
        defer { Task { await connection.close() } }
        var inhibition: UInt32?
        try await setDoNotDisturb(true, connection: connection, inhibition: &inhibition)
        // mako announces no change of its modes: the daemon reads them when something is posted, not before.
        if server.pointer != .makoctl { try await awaitDaemonDoNotDisturb(true, connection) }
        let held = try await cli(["send", "Gus", "Waits for you", "--timeout", "0", "--print-id"])
        expectations.check(held.status == 0, "send exited \(held.status): \(held.standardError)")
        let heldID = held.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let urgent = try await cli([
            "send", "Hal", "Goes through", "--level", NotificationInterruptionLevel.critical.name, "--print-id",
        ])
        let urgentID = urgent.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let allowed = try await cli(["settings", "Doorbell", "--time-sensitive", "on"])
        expectations.check(allowed.status == 0, "settings exited \(allowed.status): \(allowed.standardError)")
        let timely = try await cli([
            "send", "Ivy", "At the door", "--app-name", "Doorbell", "--level",
            NotificationInterruptionLevel.timeSensitive.name, "--print-id",
        ])
        let timelyID = timely.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let unallowed = try await cli([
            "send", "Jo", "Wants a word", "--level", NotificationInterruptionLevel.timeSensitive.name, "--print-id",
        ])
        let unallowedID = unallowed.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let pending = try await listed(BridgeMethod.listPending, connection)
        expectations.check(pending.contains(heldID), "'Gus' is not held while do-not-disturb is on: \(pending)")
        expectations.check(
            pending.contains(unallowedID), "the time-sensitive 'Jo' of an app not allowed it is not held: \(pending)")
        let delivered = try await listed(BridgeMethod.listDelivered, connection)
        expectations.check(delivered.contains(urgentID), "the critical 'Hal' was not shown: \(delivered)")
        expectations.check(delivered.contains(timelyID), "the time-sensitive 'Ivy' was not shown: \(delivered)")
        expectations.check(!delivered.contains(heldID), "'Gus' was shown while do-not-disturb is on")

        try await setDoNotDisturb(false, connection: connection, inhibition: &inhibition)
        try await withTimeout(.seconds(20), waitingFor: "'Gus' to be shown once do-not-disturb is off") {
            while try await !self.listed(BridgeMethod.listDelivered, connection).contains(heldID) {
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        let after = try await listed(BridgeMethod.listPending, connection)
        expectations.check(!after.contains(heldID), "'Gus' is still held after do-not-disturb ended")
        if server.pointer == .makoctl {
            _ = try await awaitSwayShowing("Gus")
        }
        for id in [heldID, urgentID, timelyID, unallowedID] { _ = try await cli(["withdraw", id]) }
    }

    /// Turns the server's switch the way its user does.
    func setDoNotDisturb(
        _ isOn: Bool, connection: DBusConnection, inhibition: inout UInt32?
    ) async throws {
        let command: [String]
        if dunst != nil {
            command = ["dunstctl", "set-paused", isOn ? "true" : "false"]
        } else if server.pointer == .makoctl {
            command = ["makoctl", "mode", isOn ? "-a" : "-r", "dnd"]
        } else if let gnome {
            command = [
                "gsettings", "set", "org.gnome.desktop.notifications", "show-banners", isOn ? "false" : "true",
            ]
            _ = gnome
        } else {
            // Plasma: an app's inhibition (as a presentation program asks for one) sets Inhibited while it lasts.
            if isOn {
                let reply = try await connection.call(
                    destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                    interface: "org.freedesktop.Notifications", method: "Inhibit",
                    arguments: [.string("org.example.Slides"), .string("presenting"), .vardict([:])])
                if case .uint32(let cookie)? = reply.first { inhibition = cookie }
            } else if let cookie = inhibition {
                _ = try await connection.call(
                    destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                    interface: "org.freedesktop.Notifications", method: "UnInhibit", arguments: [.uint32(cookie)])
            }
            return
        }
        let result = try await ProcessRunner.run(command, environment: gnome?.environment ?? environment)
        expectations.check(result.status == 0, "\(command.joined(separator: " ")): \(result.standardError)")
    }

    /// Waits until the daemon's `DesktopDoNotDisturb` property says `isOn`.
    func awaitDaemonDoNotDisturb(_ isOn: Bool, _ connection: DBusConnection) async throws {
        try await withTimeout(.seconds(20), waitingFor: "the daemon to see do-not-disturb \(isOn ? "on" : "off")") {
            while true {
                let reply = try await connection.call(
                    destination: BridgeAPI.busName, path: BridgeAPI.objectPath,
                    interface: "org.freedesktop.DBus.Properties", method: "Get",
                    arguments: [.string(BridgeAPI.interfaceName), .string(BridgeProperty.desktopDoNotDisturb.name)])
                if let state = reply.first.flatMap({ DesktopDoNotDisturbState($0.unwrappedVariant) }),
                    state.isOn == isOn
                {
                    return
                }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    /// The ids a listing of the default app's notifications gives.
    /// The ids `method` lists of the apps this case posts under: the CLI's default app and the one allowed
    /// time-sensitive notifications.
    func listed(_ method: BridgeMethod, _ connection: DBusConnection) async throws -> [String] {
        var ids: [String] = []
        for app in ["NotificationBridge", "Doorbell"] {
            let reply = try await connection.call(
                destination: BridgeAPI.busName, path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName,
                method: method.name, arguments: [.vardict([FilterKeys.appName.name: .string(app)])])
            guard case .array(_, let items)? = reply.first else { continue }
            ids += items.compactMap { WireEntries($0)?[ListedKeys.id] }
        }
        return ids
    }
}
