import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationServerKit
import Testing

/// `--snooze` on the command line: a category's and a notification's snooze buttons, the user's setting that turns
/// them off, and the usage errors that say how to write an interval.
@Suite("notification-bridge --snooze")
struct SnoozeCLITests {
    @Test("category add --snooze and send --snooze show their buttons; settings APP --snooze off hides them")
    func buttonsAndSetting() async throws {
        try await CLIFixture.with { fixture in
            let added = try await fixture.cli(["category", "add", "reminder", "-A", "done=Done", "--snooze", "10m,1h"])
            #expect(added.status == 0, "\(added.standardError)")
            #expect(try await fixture.cli(["send", "-a", "Mail", "Call Ann", "--category", "reminder"]).status == 0)
            let labels = try await fixture.nextNotification().actions.map(\.label)
            #expect(labels == ["Done", "Snooze 10 min", "Snooze 1 h"])

            #expect(try await fixture.cli(["send", "-a", "Mail", "Own", "--snooze", "1h30m"]).status == 0)
            #expect(try await fixture.nextNotification().actions.map(\.label) == ["Snooze 1 h 30 min"])
            let none = try await fixture.cli([
                "send", "-a", "Mail", "None", "--category", "reminder", "--snooze", "none",
            ])
            #expect(none.status == 0, "\(none.standardError)")
            #expect(try await fixture.nextNotification().actions.map(\.label) == ["Done"])

            let off = try await fixture.cli(["settings", "Mail", "--snooze", "off"])
            #expect(off.status == 0, "\(off.standardError)")
            #expect(off.output.split(separator: "\n").contains("snooze: off"), "\(off.output)")
            #expect(try await fixture.cli(["send", "-a", "Mail", "Quiet", "--category", "reminder"]).status == 0)
            #expect(try await fixture.nextNotification().actions.map(\.label) == ["Done"])
        }
    }

    @Test(
        "bad intervals are usage errors saying how to write one",
        arguments: [
            ("10x", "is not an interval"), ("0s", "use from 1s to 7d"), ("8d", "use from 1s to 7d"),
            ("1m,1m", "lists 1m twice"), ("1s,2s,3s,4s,5s", "at most 4"),
        ])
    func badIntervals(text: String, message: String) async throws {
        try await CLIFixture.with { fixture in
            let sent = try await fixture.cli(["send", "Call Ann", "--snooze", text])
            #expect(sent.status == 2)
            #expect(sent.standardError.contains(message), "\(sent.standardError)")
        }
    }
}
