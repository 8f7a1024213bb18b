import DBusTestSupport
import Foundation

extension RealServer {
    /// Whether the server is a Wayland one, run under headless sway.
    var runsUnderSway: Bool { [.makoctl, .swayncButtons, .swayncControl].contains(pointer) }

    /// The command that starts the server: under sway, as sway's unprivileged user.
    var launchCommand: [String] { runsUnderSway ? SwaySession.asUser(command) : command }
}

extension SwaySession {
    /// Why the Wayland servers cannot run here, or `nil` when they can.
    static var missing: String? {
        for program in ["sway", "grim", "setpriv", "busctl", "jq"] where ExecutableLookup.find(program) == nil {
            return "\(program) is not installed ('make interop' installs it)"
        }
        // sway runs as nobody, which only root can arrange.
        return getuid() == 0 ? nil : "sway must run as another user than root, which needs 'make interop' run as root"

    }
}

/// The user's hand on the Wayland servers: mako through `makoctl`, SwayNotificationCenter through its buttons.
extension InteropRun {
    /// Waits until the server shows the notification whose summary is `summary`, and returns the server's id for it
    /// (0 where the server does not say).
    @discardableResult
    func awaitSwayShowing(_ summary: String) async throws -> UInt32 {
        if server.pointer == .swayncControl {
            _ = try await notifyWatch?.buttons(of: summary)
            return 0
        }
        guard server.pointer == .makoctl else {
            // In SwayNotificationCenter a notification's summary is a button of its own.
            try await sway?.awaitButton(summary, of: "swaync")
            return 0
        }
        return try await withTimeout(.seconds(15), waitingFor: "mako to show '\(summary)'") {
            while true {
                if let id = try await self.makoNotifications().first(where: { $0.summary == summary })?.id {
                    return id
                }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    /// What mako shows: each notification's id and summary, from its `ListNotifications` (what `makoctl list` calls),
    /// as `busctl --json` prints it. mako 1.7's `makoctl list` printed that JSON itself; 1.10's prints text. The call
    /// goes to the name mako owns on both, `org.freedesktop.Notifications` (1.10 owns no `fr.emersion.Mako`).
    private func makoNotifications() async throws -> [(id: UInt32, summary: String)] {
        let result = try await ProcessRunner.run(
            [
                "busctl", "--user", "--json=short", "call", "org.freedesktop.Notifications", "/fr/emersion/Mako",
                "fr.emersion.Mako", "ListNotifications",
            ], environment: environment)
        guard result.status == 0,
            let object = try? JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any],
            let data = object["data"] as? [[[String: Any]]]
        else { throw TestSupportError("ListNotifications failed: \(result.standardOutput) \(result.standardError)") }
        return (data.first ?? []).compactMap { entry in
            guard let id = (entry["id"] as? [String: Any])?["data"] as? Int,
                let summary = (entry["summary"] as? [String: Any])?["data"] as? String
            else { return nil }
            return (UInt32(id), summary)
        }
    }

    /// Picks the action labelled `label` on the notification whose summary is `summary`: in mako's menu
    /// (`makoctl menu`, the picker choosing the line with that label), or SwayNotificationCenter's button.
    func chooseOnSway(_ label: String, on summary: String) async throws {
        let id = try await awaitSwayShowing(summary)
        if server.pointer == .makoctl {
            // makoctl lists the labels to the picker and invokes the action of the line it prints. The picker is a
            // script taking the label alone: mako 1.10's makoctl reads options among the picker's arguments too
            // ("invalid option -- 'F'" for grep's), 1.7's did not.
            let picker = try ExecutableScript.write(
                """
                #!/bin/sh
                # makoctl's picker: prints the menu line that is exactly the label, the first argument.
                exec grep -F -x -m 1 -- "$1"
                """, to: bus.directory.appendingPathComponent("mako-picker").path)
            let result = try await ProcessRunner.run(
                ["makoctl", "menu", "-n", String(id), picker, label], environment: environment)
            guard result.status == 0 else {
                throw TestSupportError("makoctl menu found no '\(label)': \(result.output) \(result.standardError)")
            }
        } else if server.pointer == .swayncControl {
            let buttons = try await notifyWatch?.buttons(of: summary) ?? []
            guard let index = buttons.firstIndex(of: label) else {
                throw TestSupportError("the notification '\(summary)' has no action '\(label)': it has \(buttons)")
            }
            try await swayncControl("LatestInvokeAction", "u", String(index))
        } else {
            try await sway?.press(label, in: "swaync", summary: summary)
        }
    }

    /// Calls a method of SwayNotificationCenter's control interface, as `swaync-client` does.
    private func swayncControl(_ method: String, _ signature: String, _ arguments: String...) async throws {
        let result = try await ProcessRunner.run(
            [
                "busctl", "--user", "call", "org.erikreider.swaync.cc", "/org/erikreider/swaync/cc",
                "org.erikreider.swaync.cc", method, signature,
            ] + arguments, environment: environment)
        guard result.status == 0 else { throw TestSupportError("\(method): \(result.output) \(result.standardError)") }
    }

    /// Closes the notification whose summary is `summary` as its user would: `makoctl dismiss`, or the close button.
    func dismissOnSway(_ summary: String) async throws {
        let id = try await awaitSwayShowing(summary)
        if server.pointer == .makoctl {
            let result = try await ProcessRunner.run(
                ["makoctl", "dismiss", "-n", String(id)], environment: environment)
            guard result.status == 0 else { throw TestSupportError("makoctl dismiss: \(result.standardError)") }
        } else if server.pointer == .swayncControl {
            // What swaync-client --close-latest calls.
            try await swayncControl("HideLatestNotifications", "b", "true")
        } else {
            // The close button has no name.
            try await sway?.press("", in: "swaync", summary: summary)
        }
    }
}
