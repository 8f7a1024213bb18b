import NotificationBridgeAPI
import Testing

@testable import NotificationBridgeCommands

/// The one reading of the command line, in-process: each command line becomes the command it selects, or the text
/// and exit status the program ends with, without starting the program.
@Suite("reading the command line")
struct InvocationTests {
    /// The outcome of a command line that ends before running anything, or `nil` (with an issue) when it runs
    /// something.
    private func finished(
        _ arguments: [String], as program: String = "notification-bridge",
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> CommandOutcome? {
        guard case .finished(let outcome) = Invocation.parse(arguments, invokedAs: "/usr/bin/" + program) else {
            Issue.record("\(program) \(arguments) runs a command; expected it to end", sourceLocation: sourceLocation)
            return nil
        }
        return outcome
    }

    /// The command a command line selects.
    private func command(_ arguments: [String]) -> Any? {
        guard case .command(let command, _) = Invocation.parse(arguments, invokedAs: "notification-bridge") else {
            return nil
        }
        return command
    }

    @Test(
        "a usage mistake: status 2, one message starting with the program's name that says what to do",
        arguments: [
            (["send", "T", "--in", "-5m"], ["--in '-5m' is in the past", "--in 5m"]),
            (["send", "T", "--in", "0"], ["--in '0' is no delay", "leave --in out"]),
            (["wait", "foo"], ["'foo' is not a notification id", "notification-bridge send 'foo'"]),
            (
                [
                    "category", "add", "c", "-A", "a=A", "-A", "b=B", "-A", "c=C", "--minimal", "a", "--minimal", "b",
                    "--minimal", "c",
                ],
                ["--minimal is given 3 times", "keep two"]
            ),
            (["send", "T", "--urgency", "loud"], ["'loud'", "low"]),
            (["send", "x", "-h", "int:value"], ["TYPE:NAME:VALUE"]),
            (["send", "T", "--if-do-not-disturb", "later"], ["--if-do-not-disturb 'later'", "hold or drop"]),
        ])
    func usageMistake(_ arguments: [String], says words: [String]) throws {
        let outcome = try #require(finished(arguments))
        #expect(outcome.status == ExitStatus.usage, "\(arguments): \(outcome)")
        #expect(outcome.standardOutput.isEmpty, "\(arguments): \(outcome)")
        #expect(outcome.standardError.hasPrefix("notification-bridge: "), "\(outcome.standardError)")
        #expect(!outcome.standardError.contains("Error:"), "one prefix: \(outcome.standardError)")
        for word in words { #expect(outcome.standardError.contains(word), "\(arguments): \(outcome.standardError)") }
    }

    @Test("a subcommand's name alone, missing its argument, says how to post a notification titled so")
    func loneSubcommand() throws {
        let outcome = try #require(finished(["wait"]))
        #expect(outcome.status == ExitStatus.usage)
        #expect(
            outcome.standardError.contains(
                "('wait' is a command; to post a notification titled 'wait', use notification-bridge send 'wait')"),
            "\(outcome.standardError)")
    }

    @Test("--version prints on standard output and succeeds")
    func version() throws {
        let version = try #require(finished(["--version"]))
        #expect(version.status == ExitStatus.success)
        #expect(version.standardOutput == NotificationBridgeCommand.configuration.version + "\n")
    }

    @Test("each form of the command line reaches its own runner")
    func forms() throws {
        guard case .plainSend(let plain) = Invocation.parse(["Title", "Body"], invokedAs: "notification-bridge") else {
            Issue.record("a title and a body are a plain send")
            return
        }
        #expect(WireEntries(plain.request)?[PostKeys.title] == "Title")
        guard case .execFilter = Invocation.parse(["--exec-filter", "a", "--", "true"], invokedAs: "nb") else {
            Issue.record("--exec-filter is the filter form")
            return
        }
        #expect(command(["list", "--pending"]) is ListCommand)
        #expect(command(["monitor", "Mail"]) is MonitorCommand)
        let send = try #require(command(["-u", "critical", "Disk full", "--wait"]) as? SendCommand)
        #expect(try send.request()[PostKeys.urgency] == .critical)
        let dropped = try #require(command(["Standup", "--if-do-not-disturb", "drop"]) as? SendCommand)
        #expect(try dropped.request()[PostKeys.ifDoNotDisturb] == .drop)
        #expect(try send.request()[PostKeys.ifDoNotDisturb] == nil, "hold, the daemon's default, is not sent")
        guard
            case .notifySend(let notification, _) = Invocation.parse(
                ["-u", "low", "T"], invokedAs: "/usr/bin/notify-send")
        else {
            Issue.record("started as notify-send, the command line is notify-send's")
            return
        }
        #expect(notification.summary == "T" && notification.urgencyLevel == 0)
    }

    @Test("started as notify-send: its messages, its help and its version line")
    func notifySend() throws {
        let mistake = try #require(finished(["-u", "loud", "T"], as: "notify-send"))
        #expect(mistake.status == 1, "libnotify's status for every mistake")
        #expect(!mistake.standardError.isEmpty && mistake.standardOutput.isEmpty, "\(mistake)")
        #expect(!mistake.standardError.hasPrefix("notification-bridge"), "notify-send's own words: \(mistake)")
        let help = try #require(finished(["--help"], as: "notify-send"))
        #expect(help.status == ExitStatus.success)
        #expect(help.standardOutput.contains("notify-send"), "\(help.standardOutput)")
        let version = try #require(finished(["--version"], as: "notify-send"))
        #expect(version.standardOutput.hasPrefix("/usr/bin/notify-send \(NotifySend.compatibleVersion) "))
    }

    @Test(
        "started as notify-send, each mistake ends before any call: a message, no output, a failure status",
        arguments: NotifySendCompatibilityTests.mistakes)
    func notifySendMistake(_ arguments: [String]) throws {
        let outcome = try #require(finished(arguments, as: "notify-send"))
        #expect(outcome.status != ExitStatus.success, "\(arguments): \(outcome)")
        #expect(!outcome.standardError.isEmpty, "\(arguments): \(outcome)")
        #expect(outcome.standardOutput.isEmpty, "\(arguments): \(outcome)")
    }
}
