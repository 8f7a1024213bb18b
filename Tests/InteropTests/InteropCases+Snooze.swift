import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import Testing

/// Snooze on a real server: the button is there under its label, a press puts the notification off (the daemon lists
/// it as scheduled), and it is shown again after the interval, once, with buttons that still answer its poster.
extension InteropRun {
    func snooze() async throws {
        let answer = waiting(["Gil", "Call back", "--category", "chat", "--snooze", "3s", "--timeout", "0"])
        try await awaitShown("Gil")
        if let gnome {
            let shown = try await gnome.awaitBanner("Gil")
            expectations.check(
                shown.buttons.count == 3 && shown.buttons.contains("Mute") && shown.buttons.contains("Snooze 3 s"),
                "the banner shows the buttons \(shown.buttons), not three with Mute and Snooze 3 s")
        }
        try await press("Snooze 3 s", on: "Gil") { await (try? self.isPending("Gil")) == true }
        try await withTimeout(.seconds(20), waitingFor: "'Gil' to come back after its snooze") {
            while try await self.isPending("Gil") { try await Task.sleep(for: .milliseconds(100)) }
        }
        try await press("Mute", on: "Gil", until: Finished.watching(answer))
        let result = try await answer.value
        expectations.check(result.status == 0, "send --wait exited \(result.status): \(result.standardError)")
        let action = response(result)?[ResponseKeys.action.name] as? String
        expectations.check(action == "mute", "the answer is \(action ?? "none"), not mute: \(result.output)")
        // Once: nothing of it is left to come back.
        expectations.check(try await !isPending("Gil"), "'Gil' is scheduled again after it came back")
    }

    /// Whether the daemon lists a notification titled `title` as scheduled.
    private func isPending(_ title: String) async throws -> Bool {
        let listed = try await cli(["list", "--pending", "--json"])
        guard listed.status == 0,
            let items = try? JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]]
        else { throw TestSupportError("list --pending failed: \(listed.standardError)") }
        return items.contains { $0[PostKeys.title.name] as? String == title }
    }
}
