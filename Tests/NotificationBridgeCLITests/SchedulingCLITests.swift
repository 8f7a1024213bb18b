import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationServerKit
import Testing

/// `send`'s scheduling options, `list --pending` and `monitor`, run as the built programs against the daemon.
@Suite("Scheduling and monitor on the command line")
struct SchedulingCLITests {
    @Test("send --in schedules; list --pending shows the id, the next fire date in the local zone and the title")
    func inThenListPending() async throws {
        try await CLIFixture.with { fixture in
            let before = Int(Date().timeIntervalSince1970)
            let posted = try await fixture.cli(["send", "Tea", "-a", "Kettle", "--in", "2h", "--print-id"])
            #expect(posted.status == 0, "\(posted.standardError)")
            let id = posted.output

            let listed = try await fixture.cli(["list", "--pending", "-a", "Kettle"])
            #expect(listed.status == 0, "\(listed.standardError)")
            let fields = listed.output.split(separator: "\t").map(String.init)
            #expect(fields.count == 3, "\(listed.output)")
            #expect(fields.first == id && fields.last == "Tea", "\(listed.output)")

            let json = try await fixture.cli(["list", "--pending", "-a", "Kettle", "--json"])
            let items = try #require(try parsedJSON(json.output) as? [[String: Any]], "\(json.output)")
            let next = try #require(items.first?[ListedKeys.nextFireDate.name] as? Double, "\(json.output)")
            #expect(Int(next) >= before + 7200 && Int(next) <= before + 7200 + 60, "\(json.output)")
            #expect(items.first?[PostKeys.delay.name] as? Double == 7200)
            // The date the human line shows is that instant in the local zone (the tests run with the system's).
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone.current
            let shown = calendar.dateComponents([.hour, .minute], from: Date(timeIntervalSince1970: next))
            let clock = String(format: "%02d:%02d:", shown.hour ?? 0, shown.minute ?? 0)
            #expect(fields.count == 3 && fields[1].contains(" \(clock)"), "\(listed.output)")

            let withdrawn = try await fixture.cli(["withdraw", id])
            #expect(withdrawn.status == 0, "\(withdrawn.standardError)")
            #expect(try await fixture.cli(["list", "--pending", "-a", "Kettle"]).output == "")
        }
    }

    @Test("send --every posts a repeating calendar match the daemon lists back with the same fields")
    func everyIsACalendarMatch() async throws {
        try await CLIFixture.with { fixture in
            let posted = try await fixture.cli(["send", "Stand-up", "-a", "Team", "--every", "mon-fri 09:00"])
            #expect(posted.status == 0, "\(posted.standardError)")
            let json = try await fixture.cli(["list", "--pending", "-a", "Team", "--json"])
            let items = try #require(try parsedJSON(json.output) as? [[String: Any]], "\(json.output)")
            let calendar = try #require(items.first?[PostKeys.calendar.name] as? [String: Any], "\(json.output)")
            #expect(
                calendar[CalendarKeys.hour.name] as? Int == 9 && calendar[CalendarKeys.minute.name] as? Int == 0,
                "\(calendar)")
            #expect(
                calendar[CalendarKeys.weekdays.name] as? [String]
                    == ["monday", "tuesday", "wednesday", "thursday", "friday"],
                "\(calendar)")
            #expect(items.first?[PostKeys.repeat.name] as? Bool == true)
        }
    }

    @Test("send --at with a past instant shows it at once")
    func atInThePast() async throws {
        try await CLIFixture.with { fixture in
            let posted = try await fixture.cli(["send", "Overdue", "--at", "2020-01-01T00:00:00Z"])
            #expect(posted.status == 0, "\(posted.standardError)")
            #expect(try await fixture.nextNotification().summary == "Overdue")
        }
    }

    @Test(
        "scheduling options that contradict or do not parse exit 2 with a message naming the option",
        arguments: [
            (["--in", "5m", "--every", "09:00"], "--in and --every"),
            (["--in", "5 minutes"], "--in '5 minutes' is not a duration"),
            (["--repeat", "day"], "--repeat needs --at or --in"),
            (["--every", "09:00", "--repeat", "day"], "--repeat goes with --at or --in"),
            (["--at", "tomorrow"], "--at 'tomorrow' is not a date-time"),
            (["--every", "funday 09:00"], "'funday' is not a day"),
            (["--next", "mon"], "has no time at the end"),
            (["--time-zone", "fixed"], "--time-zone goes with --at"),
            (["--repeat", "fortnight", "--in", "1h"], "fortnight"),
            (["--at", "2030-02-30T09:00", "--time-zone", "fixed"], "February 2030 has 28 days; use 1 to 28"),
            (["--at", "2030-13-01T09:00Z"], "date.month is 13"),
        ])
    func badOptions(arguments: [String], message: String) async throws {
        let result = try await BuiltPrograms.cli(["send", "Title"] + arguments)
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError.contains(message), "\(result.standardError)")
    }

    @Test("--at with --time-zone fixed reads a time the clock skips as the daemon does: the end of the gap")
    func fixedTimeInSpringForwardGap() async throws {
        var environment = ProcessInfo.processInfo.environment
        environment["TZ"] = "Europe/Berlin"
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/notification-bridge-test"
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "Europe/Berlin"), "tzdata is not installed")
        // On 2030-03-31 Berlin's clocks go from 02:00 to 03:00: 02:30 is skipped, 01:30 and 03:00 are shown once.
        for (wallClock, shown) in [("02:30", (3, 0)), ("01:30", (1, 30)), ("03:00", (3, 0))] {
            let program = try await BuiltPrograms.path(of: "notification-bridge")
            let arguments = ["send", "Title", "--at", "2030-03-31T\(wallClock)", "--time-zone", "fixed", "--dry-run"]
            let result = try await ProcessRunner.run(
                [program] + arguments, environment: environment, timeout: .seconds(20))
            #expect(result.status == 0, "\(result.standardError)")
            let expected = try #require(
                calendar.date(from: DateComponents(year: 2030, month: 3, day: 31, hour: shown.0, minute: shown.1)))
            #expect(
                result.output.contains("'fire-date': <int64 \(Int(expected.timeIntervalSince1970))>"),
                "\(wallClock): \(result.output)")
        }
    }

    @Test("monitor prints one line per response to the app's notifications whose sender has exited; --json one object")
    func monitorStreamsResponses() async throws {
        try await CLIFixture.with(.plasma) { fixture in
            for json in [false, true] {
                let (output, outputEnd) = try LineReader.pipe()
                let (errors, errorEnd) = try LineReader.pipe()
                let monitor = try ChildProcess.spawn(
                    [try await BuiltPrograms.path(of: "notification-bridge"), "monitor", "Builds"]
                        + (json ? ["--json"] : []),
                    environment: fixture.environment, standardOutput: outputEnd, standardError: errorEnd)
                close(outputEnd)
                close(errorEnd)
                defer { _ = monitor.stop() }
                let started = try errors.nextLine(within: .seconds(20), waitingFor: "monitor to attach")
                #expect(started.contains("monitoring the responses of Builds"), "\(started)")

                let posted = try await fixture.cli([
                    "send", json ? "Build 2 failed" : "Build 1 failed", "-a", "Builds", "--print-id",
                    "-A", "retry=Retry,background",
                    "-A", "reply=Reply,text-input",
                ])
                #expect(posted.status == 0, "\(posted.standardError)")
                let shown = try await fixture.nextNotification()
                try await fixture.server.reply(id: shown.id, text: "line one\nline\ttwo")
                let line = try output.nextLine(within: .seconds(20), waitingFor: "monitor to print the response")
                if json {
                    let object = try #require(try parsedJSON(line) as? [String: Any], "\(line)")
                    #expect(object[ResponseKeys.id.name] as? String == posted.output)
                    #expect(object[ResponseKeys.action.name] as? String == "reply")
                    #expect(object[ResponseKeys.text.name] as? String == "line one\nline\ttwo")
                } else {
                    #expect(line == "\(posted.output)\treply\tline one\\nline\\ttwo")
                }
                monitor.signal(SIGINT)
                #expect(await monitor.wait(within: .seconds(10)) != nil, "monitor did not stop on Ctrl-C")
            }
        }
    }
}
