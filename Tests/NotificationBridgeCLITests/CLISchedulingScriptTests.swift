import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationServerKit
import Testing

/// Scheduling and `monitor` scripts, run against the built daemon: what
/// `list --pending` then says (fire dates computed here in the zone the daemon and the command are given), the
/// notification reaching the server when due, and `monitor` printing a response.
@Suite("command line scheduling scripts")
struct CLISchedulingScriptTests {
    typealias Examples = CLIScripts

    /// The zone the daemon and the command run in, so that the wall-clock times they print are the expected ones (its
    /// rules come from tzdata, which `make test` installs).
    static let zone = "Europe/Berlin"

    /// Runs `example`; it must succeed and print nothing on standard error.
    private static func run(_ example: CLIScript, in fixture: CLIFixture) async throws -> ProcessResult {
        let result = try await fixture.sh(example.script)
        #expect(result.status == 0, "\(example): \(result.standardError)")
        #expect(result.standardError.isEmpty, "\(example): \(result.standardError)")
        return result
    }

    /// The one notification `list --pending --json` shows for `app` (the default app name when `nil`).
    private static func pending(_ app: String?, in fixture: CLIFixture) async throws -> [String: Any] {
        let listed = try await fixture.cli(["list", "--pending", "--json"] + (app.map { ["-a", $0] } ?? []))
        #expect(listed.status == 0, "\(listed.standardError)")
        let items = try #require(try parsedJSON(listed.output) as? [[String: Any]], "\(listed.output)")
        #expect(items.count == 1, "\(listed.output)")
        return try #require(items.first, "nothing pending: \(listed.output)")
    }

    @Test("send --in 4m is pending for 240 seconds from the send, with its title")
    func sendIn() async throws {
        try await CLIFixture.with { fixture in
            let before = Date().timeIntervalSince1970
            let result = try await Self.run(Examples.sendIn, in: fixture)
            let after = Date().timeIntervalSince1970
            #expect(result.standardOutput.isEmpty)
            let item = try await Self.pending(nil, in: fixture)
            #expect(item[PostKeys.title.name] as? String == "Tea is ready")
            #expect(item[PostKeys.delay.name] as? Double == 240)
            let next = try #require(item[ListedKeys.nextFireDate.name] as? Double, "\(item)")
            #expect(
                next >= (before + 240).rounded(.down) && next <= (after + 240).rounded(.up),
                "next fire date \(next), sent between \(before) and \(after)")
        }
    }

    @Test("the same send with --in 1s reaches the server a second later")
    func sendInFires() async throws {
        try await CLIFixture.with { fixture in
            let script = Examples.sendIn.script.replacingOccurrences(of: "--in 4m", with: "--in 1s")
            #expect(script != Examples.sendIn.script, "the example no longer says --in 4m")
            let before = Date()
            let result = try await fixture.sh(script)
            #expect(result.status == 0, "\(result.standardError)")
            let shown = try await fixture.nextNotification()
            #expect(Date().timeIntervalSince(before) >= 1, "shown before it was due")
            #expect(shown.summary == "Tea is ready")
            #expect(try await fixture.cli(["list", "--pending"]).output.isEmpty)
        }
    }

    @Test("send --at a wall-clock time, then list --pending prints the id, that time in the zone and the title")
    func sendAtAndListPending() async throws {
        try await CLIFixture.with(timeZone: Self.zone) { fixture in
            let result = try await Self.run(Examples.sendAtAndListPending, in: fixture)
            let id = String(result.output.prefix { $0 != "\t" })
            #expect(id.count == 16, "\(result.output)")
            #expect(result.output == Examples.sendAtAndListPending.output?.replacingOccurrences(of: "$id", with: id))

            let item = try await Self.pending("Family", in: fixture)
            #expect(item[ListedKeys.id.name] as? String == id)
            #expect(item[PostKeys.body.name] as? String == "Table for six")
            #expect(item[PostKeys.fireDate.name] as? String == "2030-12-24T18:00:00", "\(item)")
            #expect(item[PostKeys.timeZone.name] as? String == "local", "\(item)")
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = try #require(TimeZone(identifier: Self.zone))
            let expected = try #require(
                calendar.date(from: DateComponents(year: 2030, month: 12, day: 24, hour: 18, minute: 0)))
            #expect(item[ListedKeys.nextFireDate.name] as? Double == expected.timeIntervalSince1970, "\(item)")
        }
    }

    @Test("send --every 'mon-fri 09:00' is pending at the next weekday 09:00 in the zone, repeating")
    func every() async throws {
        try await CLIFixture.with(timeZone: Self.zone) { fixture in
            let before = Date()
            let result = try await Self.run(Examples.every, in: fixture)
            let after = Date()
            #expect(result.standardOutput.isEmpty)
            let item = try await Self.pending("Team", in: fixture)
            #expect(
                item[PostKeys.title.name] as? String == "Stand-up" && item[PostKeys.body.name] as? String == "Room 4",
                "\(item)")
            #expect(item[PostKeys.repeat.name] as? Bool == true, "\(item)")
            let next = try #require(item[ListedKeys.nextFireDate.name] as? Double, "\(item)")
            // The daemon's "now" lies between the two; a 09:00 passing in between allows either answer.
            let expected = [try Self.nextWeekdayNine(after: before), try Self.nextWeekdayNine(after: after)]
            #expect(expected.map(\.timeIntervalSince1970).contains(next), "\(item), expected one of \(expected)")
        }
    }

    @Test("monitor --json prints the response to the notification send posted before, without --wait")
    func monitor() async throws {
        // GNOME Shell's notifications do not expire: the response comes however long monitor takes to start.
        try await CLIFixture.with(.gnomeShell) { fixture in
            let running = try await RunningExample.start(Examples.monitor.script, in: fixture)
            defer { running.stop() }
            let shown = try await fixture.nextNotification()
            #expect(shown.summary == "Build 41 failed")
            try running.awaitAttached("Builds")
            let listed = try await fixture.cli(["list", "-a", "Builds"])
            let id = String(listed.output.prefix { $0 != "\t" })
            #expect(listed.output == "\(id)\tBuild 41 failed")

            try await fixture.server.invokeAction(id: shown.id, key: "retry")
            let line = try running.output.nextLine(within: .seconds(20), waitingFor: "monitor to print the response")
            #expect(line == Examples.monitor.output?.replacingOccurrences(of: "$id", with: id))
            try await running.interrupt()
        }
    }

    @Test("send --in 10m, then monitor --foreground: pending for 600 seconds while monitor runs")
    func foregroundPending() async throws {
        try await CLIFixture.with { fixture in
            let before = Date().timeIntervalSince1970
            let running = try await RunningExample.start(Examples.foreground.script, in: fixture)
            defer { running.stop() }
            try running.awaitAttached("Timer")
            let after = Date().timeIntervalSince1970
            let item = try await Self.pending("Timer", in: fixture)
            #expect(item[PostKeys.title.name] as? String == "Pasta is done")
            let next = try #require(item[ListedKeys.nextFireDate.name] as? Double, "\(item)")
            #expect(
                next >= (before + 600).rounded(.down) && next <= (after + 600).rounded(.up),
                "next fire date \(next), sent between \(before) and \(after)")
            try await running.interrupt()
        }
    }

    @Test("the same with --in 5s: monitor --foreground prints the fired line, and the server shows nothing")
    func foregroundFires() async throws {
        try await CLIFixture.with { fixture in
            let script = Examples.foreground.script.replacingOccurrences(of: "--in 10m", with: "--in 5s")
            #expect(script != Examples.foreground.script, "the example no longer says --in 10m")
            let running = try await RunningExample.start(script, in: fixture)
            defer { running.stop() }
            // Five seconds leave monitor the time to attach before it comes due.
            try running.awaitAttached("Timer")
            let id = try #require(
                try await Self.pending("Timer", in: fixture)[ListedKeys.id.name] as? String,
                "not pending any more: monitor took more than 5 seconds to attach")
            let line = try running.output.nextLine(within: .seconds(20), waitingFor: "monitor to print the firing")
            #expect(line == Examples.foreground.output?.replacingOccurrences(of: "$id", with: id))
            #expect(try await fixture.cli(["list", "--pending", "-a", "Timer"]).output.isEmpty)
            #expect(try await fixture.cli(["list", "-a", "Timer"]).output.isEmpty, "the server was given it too")
            try await running.interrupt()
        }
    }

    /// The first Monday to Friday 09:00:00 strictly after `date`, in ``zone``.
    private static func nextWeekdayNine(after date: Date) throws -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: zone))
        let candidates = (2...6).compactMap { weekday in
            calendar.nextDate(
                after: date, matching: DateComponents(hour: 9, minute: 0, second: 0, weekday: weekday),
                matchingPolicy: .nextTime)
        }
        return try #require(candidates.min(), "no weekday 09:00 after \(date)")
    }
}

/// An example that runs until interrupted (it ends with `monitor`), started with `/bin/sh -c` as `CLIFixture.sh`
/// runs one, its standard output and error read line by line.
private struct RunningExample {
    let shell: ChildProcess
    let output: LineReader
    let errors: LineReader

    static func start(_ script: String, in fixture: CLIFixture) async throws -> RunningExample {
        let (output, outputEnd) = try LineReader.pipe()
        let (errors, errorEnd) = try LineReader.pipe()
        defer {
            close(outputEnd)
            close(errorEnd)
        }
        var environment = fixture.environment
        let program = try await BuiltPrograms.path(of: "notification-bridge")
        environment["PATH"] =
            URL(fileURLWithPath: program).deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/bin")
        let shell = try ChildProcess.spawn(
            ["/bin/sh", "-c", script], environment: environment, standardOutput: outputEnd, standardError: errorEnd)
        return RunningExample(shell: shell, output: output, errors: errors)
    }

    /// Waits for `monitor` to say it attached as `app` (the first line on standard error).
    func awaitAttached(_ app: String) throws {
        let started = try errors.nextLine(within: .seconds(20), waitingFor: "monitor to attach")
        #expect(started.contains("monitoring the responses of \(app)"), "\(started)")
    }

    /// Ctrl-C, as in a terminal: SIGINT to the shell and its children; the example must end.
    func interrupt() async throws {
        signalAll(SIGINT)
        #expect(await shell.wait(within: .seconds(10)) != nil, "the example did not stop on Ctrl-C")
    }

    /// Interrupts and reaps the example, whatever happened.
    func stop() {
        signalAll(SIGINT)
        _ = shell.stop()
    }

    /// Sends `signal` to the shell and its children; nothing once the shell has been reaped (its process id may then
    /// be another's).
    private func signalAll(_ signal: Int32) {
        guard shell.poll() == nil else { return }
        let list = "/proc/\(shell.pid)/task/\(shell.pid)/children"
        let children = (try? String(contentsOfFile: list, encoding: .utf8)) ?? ""
        for child in children.split(separator: " ").compactMap({ pid_t($0) }) { kill(child, signal) }
        shell.signal(signal)
    }
}
