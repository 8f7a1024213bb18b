import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import Testing

@testable import NotificationBridgeCommands

/// `notification-bridge focus on|off|status`, run as a user runs them.
@Suite("focus on the command line")
struct FocusCLITests {
    @Test("focus on holds an app it does not let through, status says so, and focus off shows what was held")
    func onStatusOff() async throws {
        try await CLIFixture.with { fixture in
            let on = try await fixture.cli(["focus", "on", "work", "--for", "1h", "--allow-app", "Doorbell"])
            #expect(on.status == 0 && on.output.isEmpty, "\(on.standardError)")

            let status = try await fixture.cli(["focus", "status"])
            #expect(status.output.hasPrefix("work, on by hand, until 20"), "\(status.output) \(status.standardError)")
            let printed = try await fixture.cli(["focus", "status", "--json"]).output
            let json = try #require(try parsedJSON(printed) as? [String: Any], "a JSON object: \(printed)")
            #expect(
                json[FocusKeys.name.name] as? String == "work" && json[FocusKeys.cause.name] as? String == "manual",
                "\(json)")
            let until = try #require(json[FocusKeys.until.name] as? String, "an end in \(json)")
            let end = try #require(ISO8601DateFormatter().date(from: until))
            #expect(abs(end.timeIntervalSinceNow - 3600) < 120, "ends an hour from now, not at \(until)")

            #expect(try await fixture.cli(["send", "New mail", "-a", "Mail"]).status == 0)
            #expect(try await fixture.cli(["send", "Someone at the door", "-a", "Doorbell"]).status == 0)
            #expect(
                try await fixture.nextNotification().summary == "Someone at the door",
                "the app the mode lets through is shown, and the held mail is not shown before it")

            let off = try await fixture.cli(["focus", "off"])
            #expect(off.status == 0, "\(off.standardError)")
            #expect(try await fixture.nextNotification().summary == "New mail", "shown once the mode is off")
            #expect(try await fixture.cli(["focus", "status"]).output == "none")
        }
    }

    @Test(
        "a mistake in focus on is a usage error that says what to write",
        arguments: [
            (["--for", "1h", "--until", "18:00"], "give one"), (["--for", "soon"], "not a duration"),
            (["--until", "25:00"], "not a time of day"), (["--allow-thread", "ann"], "APP/THREAD"),
        ])
    func mistakes(_ options: [String], _ message: String) throws {
        guard case .finished(let outcome) = Invocation.parse(["focus", "on", "work"] + options, invokedAs: "nb") else {
            Issue.record("\(options) runs a command")
            return
        }
        #expect(outcome.status == ExitStatus.usage, "\(options): \(outcome)")
        #expect("\(outcome)".contains(message), "\(options): \(outcome)")
    }

    @Test("--until HH:MM ends at the next time the wall clock shows it, within a day")
    func untilWallClock() throws {
        let anHourAgo = Date().addingTimeInterval(-3600)
        let parts = Calendar.current.dateComponents([.hour, .minute], from: anHourAgo)
        let end = try LocalClock.next(hour: parts.hour!, minute: parts.minute!, second: 0)
        let fromNow = Double(end) - Date().timeIntervalSince1970
        #expect(fromNow > 0 && fromNow <= 86_400, "an hour ago's time of day is tomorrow: \(fromNow) s from now")
        let text = LocalClock.text(secondsSince1970: end)
        #expect(text.contains(String(format: "%02d:%02d:00", parts.hour!, parts.minute!)), "\(text)")
    }
}

/// `notification-bridge focus schedule|modes`, run as a user runs them.
@Suite("focus schedules on the command line")
struct FocusScheduleCLITests {
    @Test("focus schedule sets when a mode comes on, focus modes lists it (and as JSON), --clear removes it")
    func scheduleListClear() async throws {
        try await CLIFixture.with { fixture in
            let set = try await fixture.cli([
                "focus", "schedule", "sleep", "mon-fri 22:00-07:00", "sat,sun 23:30-09:00",
            ])
            #expect(set.status == 0 && set.output.isEmpty, "\(set.standardError)")
            let listed = try await fixture.cli(["focus", "modes"])
            #expect(
                listed.output == "sleep: mon-fri 22:00-07:00, sat,sun 23:30-09:00; lets through no app or thread",
                "\(listed.output) \(listed.standardError)")
            let printed = try await fixture.cli(["focus", "modes", "--json"]).output
            let json = try #require(try parsedJSON(printed) as? [[String: Any]], "a JSON array: \(printed)")
            #expect(json.count == 1 && json.first?[FocusKeys.name.name] as? String == "sleep", "\(json)")
            #expect(
                json.first?[FocusModeKeys.schedules.name] as? [String]
                    == ["mon-fri 22:00-07:00", "sat,sun 23:30-09:00"], "\(json)")

            let bad = try await fixture.cli(["focus", "schedule", "sleep", "weekdays 22:00-07:00"])
            #expect(bad.status != 0 && bad.standardError.contains("'weekdays' is not a day"), "\(bad.standardError)")

            #expect(try await fixture.cli(["focus", "schedule", "sleep", "--clear"]).status == 0)
            #expect(
                try await fixture.cli(["focus", "modes"]).output == "sleep: by hand only; lets through no app or thread"
            )
        }
    }

    @Test(
        "focus schedule needs schedules or --clear, not both",
        arguments: [([String](), "give a schedule"), (["mon 09:00-17:00", "--clear"], "give one or the other")])
    func mistakes(_ options: [String], _ message: String) throws {
        guard case .finished(let outcome) = Invocation.parse(["focus", "schedule", "work"] + options, invokedAs: "nb")
        else {
            Issue.record("\(options) runs a command")
            return
        }
        #expect(outcome.status == ExitStatus.usage, "\(options): \(outcome)")
        #expect("\(outcome)".contains(message), "\(options): \(outcome)")
    }
}
