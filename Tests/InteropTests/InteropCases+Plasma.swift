import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import Testing

/// Plasma's inline reply, through its popup: Reply opens a text field in the popup itself, with the bridge's Send
/// button beside it.
extension InteropRun {
    /// Reply opened, then the popup closed without a word: `send --wait` ends with the closed status.
    func cancelledInlineReply(on desktop: DesktopSession) async throws {
        let answer = waiting(["Cat", "Dinner?", "--category", "chat", "--timeout", "0"])
        let bubble = try await desktop.widget("the summary 'Cat'") { $0.role == "label" && $0.name == "Cat" }
        try await desktop.clickButton("Reply", near: bubble)
        _ = try await desktop.widget("the reply field's Send button") { $0.role == "push button" && $0.name == "Send" }
        try await desktop.clickButton("Close", near: bubble)
        let result = try await answer.value
        expectations.check(
            result.status == 3, "send --wait exited \(result.status), not 3: \(result.output) \(result.standardError)")
    }

    /// Reply opened, the text typed in the popup's field with the keyboard, Send clicked: `send --wait` prints the
    /// text byte for byte.
    func typedInlineReply(on desktop: DesktopSession) async throws {
        let answer = waiting(["Dan", "Your order?", "--category", "chat", "--timeout", "0"])
        let bubble = try await desktop.widget("the summary 'Dan'") { $0.role == "label" && $0.name == "Dan" }
        try await desktop.clickButton("Reply", near: bubble)
        let send = try await desktop.widget("the reply field's Send button") {
            $0.role == "push button" && $0.name == "Send"
        }
        let field = try await desktop.widget("the reply field") {
            $0.role == "text" && abs($0.y - send.y) < 10 && $0.x < send.x
        }
        try await desktop.click(field)
        // xdotool types a character the keyboard map lacks by mapping it to a spare key for the moment of the press;
        // a slow pace lets the shell read each key before the map changes back (else é, ✓ and the emoji are lost).
        let typed = try await ProcessRunner.run(
            ["xdotool", "type", "--delay", "150", Self.trickyText], environment: desktop.environment,
            timeout: .seconds(60))
        expectations.check(typed.status == 0, "xdotool type failed: \(typed.standardError)")
        try await desktop.click(send)
        checkReplied(try await answer.value)
    }

    /// The same notification posted twice at once, as an app with two identical messages does: Plasma 6 refuses the
    /// second within a second of the first (`ExcessNotificationGeneration`), and the bridge sends it again once the
    /// second has passed. Both posts succeed, and two popups with the same text are on the screen.
    func identicalNotifications(on desktop: DesktopSession) async throws {
        let started = ContinuousClock.now
        let posts = (1...2).map { _ in
            Task { try await self.cli(["send", "Twice", "The same text", "--timeout", "0"]) }
        }
        var ids: [String] = []
        for post in posts {
            let result = try await post.value
            expectations.check(
                result.status == 0,
                "send of an identical notification exited \(result.status): \(result.standardError)")
            ids.append(result.output.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let elapsed = ContinuousClock.now - started
        // Within the second, Plasma takes the first and refuses the second; a faster pair means it no longer refuses,
        // and the quirk the bridge applies is out of date.
        expectations.check(elapsed >= .seconds(1), "both identical posts were taken within \(elapsed): no refusal")
        let summaries = try await withTimeout(.seconds(20), waitingFor: "Plasma to show two popups 'Twice'") {
            while true {
                let shown = try await desktop.widgets().filter { $0.name == "Twice" && $0.width > 0 }
                if shown.count >= 2 { return shown }
                try await Task.sleep(for: .milliseconds(200))
            }
        }
        print("interop: two identical posts took \(elapsed); Plasma shows \(summaries.count) popups 'Twice'")
        for id in ids where !id.isEmpty { _ = try? await cli(["withdraw", id]) }
    }
}
