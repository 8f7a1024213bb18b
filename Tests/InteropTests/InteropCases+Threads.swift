import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import Testing

/// A conversation of twenty messages, as a chat app posts it.
extension InteropRun {
    /// Twenty posts to one thread: dunst shows one notification, and Mute chosen on it answers the newest; GNOME Shell,
    /// which groups by app itself, gets each as a notification of its own.
    func thread() async throws {
        if let gnome { try await gnome.markNotifications() }
        var ids: [String] = []
        for number in 1...20 {
            let sent = try await cli([
                "send", "Gus", "Message \(number)", "--category", "chat", "--thread", "gus", "--summary-argument",
                "Gus",
                "--timeout", "0", "--print-id",
            ])
            expectations.check(sent.status == 0, "send exited \(sent.status): \(sent.standardError)")
            ids.append(sent.output.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let listed = try await cli(["list", "--json"])
        let entries = (try? JSONSerialization.jsonObject(with: Data(listed.output.utf8))) as? [[String: Any]] ?? []
        let gus = entries.filter { ids.contains($0[ListedKeys.id.name] as? String ?? "") }
        let behind = gus.filter { $0[ListedKeys.onScreen.name] as? Bool == false }
        if let gnome {
            // Each post is a notification of its own there, and the shell itself keeps the last few of an app (three
            // in GNOME Shell 43), closing the older ones: the bridge lists what the shell holds.
            let held = try await gnome.postedSinceMark().filter { $0 == "Gus" }.count
            expectations.check(
                held > 1 && held == gus.count, "GNOME Shell holds \(held) of the twenty, the bridge lists \(gus.count)")
            expectations.check(behind.isEmpty, "\(behind.count) listed as not on the screen on GNOME Shell")
            let withdrawn = try await cli(["withdraw", "--all", "--thread", "gus"])
            expectations.check(withdrawn.status == 0, "withdraw --all exited \(withdrawn.status)")
            return
        }
        let displayed = try await ProcessRunner.run(["dunstctl", "count", "displayed"], environment: environment)
        let count = Int(displayed.output.trimmingCharacters(in: .whitespacesAndNewlines))
        expectations.check(count == 1, "dunst displays \(displayed.output) notifications, not one")
        expectations.check(gus.count == 20, "list shows \(gus.count) of the twenty: \(listed.output)")
        expectations.check(behind.count == 19, "\(behind.count) listed as waiting behind the newest, not 19")
        let answer = Task { try await self.cli(["wait", ids[19], "--json"], timeout: .seconds(60)) }
        try await choose("Mute", on: "Gus", until: answer)
        let result = try await answer.value
        expectations.check(result.status == 0, "wait for the newest exited \(result.status): \(result.standardError)")
        let action = response(result)?[ResponseKeys.action.name] as? String
        expectations.check(action == "mute", "the newest's answer is \(action ?? "none"), not mute: \(result.output)")
    }
}
