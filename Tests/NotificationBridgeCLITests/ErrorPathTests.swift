import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import Testing

/// Every mistake the command line can make, wherever it is found: one line that starts with the program's name and
/// says what to do, no D-Bus method or key names, exit status 2 for a usage mistake and 1 for a failure to deliver.
@Suite("error messages and exit statuses")
struct ErrorPathTests {
    /// A mistake found before any D-Bus call, and words its message must have.
    struct Mistake: Sendable, CustomStringConvertible {
        var arguments: [String]
        var says: [String]
        var description: String { arguments.joined(separator: " ") }
    }

    static let parserMistakes: [Mistake] = [
        Mistake(arguments: ["send", "T", "--in", "-5m"], says: ["--in '-5m' is in the past", "--in 5m"]),
        Mistake(arguments: ["send", "T", "--in", "0"], says: ["--in '0' is no delay", "leave --in out"]),
        Mistake(arguments: ["send", "T", "--in", "0m"], says: ["no delay"]),
        Mistake(
            arguments: ["send", "T", "--exec-on", "x", "-A", "x=X", "--", "/nonexistent/handler"],
            says: ["'/nonexistent/handler' is not an installed program", "give the path"]),
        Mistake(arguments: ["send", "T", "--", "no-such-program-anywhere"], says: ["not an installed program"]),
        Mistake(
            arguments: ["wait", "foo"], says: ["'foo' is not a notification id", "notification-bridge send 'foo'"]),
        Mistake(
            arguments: [
                "category", "add", "c", "-A", "a=A", "-A", "b=B", "-A", "c=C", "--minimal", "a", "--minimal", "b",
                "--minimal", "c",
            ],
            says: ["--minimal is given 3 times", "keep two"]),
        Mistake(arguments: ["send", "T", "--urgency", "loud"], says: ["'loud'", "low"]),
    ]

    @Test(
        "a usage mistake found by the parser: exit 2, the program's name first, what to do", arguments: parserMistakes)
    func parser(_ mistake: Mistake) async throws {
        let result = try await BuiltPrograms.cli(mistake.arguments)
        #expect(result.status == 2, "\(mistake): \(result.standardError)")
        let first = result.standardError.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.hasPrefix("notification-bridge: "), "\(mistake): \(result.standardError)")
        #expect(!result.standardError.contains("Error:"), "one prefix: \(result.standardError)")
        for words in mistake.says {
            #expect(result.standardError.contains(words), "\(mistake): \(result.standardError)")
        }
    }

    @Test("a past --at is shown now, with a warning that says so")
    func pastAt() async throws {
        try await CLIFixture.with { fixture in
            let posted = try await fixture.cli(["send", "Late", "--at", "2001-01-01T10:00Z"])
            #expect(posted.status == 0, "\(posted.standardError)")
            #expect(
                posted.standardError.hasPrefix("notification-bridge: warning: --at '2001-01-01T10:00Z' is in the past"),
                "\(posted.standardError)")
            _ = try await fixture.nextNotification()
        }
    }

    @Test("-v and -? are --version and --help")
    func shortFlags() async throws {
        let version = try await BuiltPrograms.cli(["-v"])
        #expect(version.status == 0)
        #expect(version.output == (try await BuiltPrograms.cli(["--version"])).output)
        let help = try await BuiltPrograms.cli(["-?"])
        #expect(help.status == 0)
        #expect(help.output.contains("USAGE"), "\(help.output)")
    }

    @Test("mistakes the daemon finds exit 2 too, in the command line's words")
    func daemonMistakes() async throws {
        try await CLIFixture.with { fixture in
            let category = try await fixture.cli(["send", "T", "--category", "nope"])
            #expect(category.status == 2, "\(category.standardError)")
            #expect(category.standardError.contains("notification-bridge category add"), "\(category.standardError)")
            #expect(!category.standardError.contains(BridgeMethod.listCategories.name), "\(category.standardError)")
            #expect(category.standardError.split(separator: "\n").count == 1, "\(category.standardError)")

            let unknown = try await fixture.cli(["withdraw", "0123456789abcdef"])
            #expect(unknown.status == 2, "\(unknown.standardError)")
            #expect(unknown.standardError.hasPrefix("notification-bridge: "), "\(unknown.standardError)")
            #expect(!unknown.standardError.contains("Post "), "no D-Bus method names: \(unknown.standardError)")
            #expect(unknown.standardError.contains("notification-bridge list"), "\(unknown.standardError)")
        }
    }

    @Test("Ctrl-C during send --wait closes the notification and exits 3")
    func interruptedSendWait() async throws {
        try await CLIFixture.with { fixture in
            let child = try ChildProcess.spawn(
                [try await BuiltPrograms.path(of: "notification-bridge"), "send", "Wait", "-A", "ok=OK", "--wait"],
                environment: fixture.environment, standardError: open("/dev/null", O_WRONLY))
            let shown = try await fixture.nextNotification()
            // The CLI arms Ctrl-C once Post has answered; the server has the notification a moment before that.
            let status = try await withTimeout(waitingFor: "send --wait to end after Ctrl-C") { () async -> Int32? in
                while true {
                    child.signal(SIGINT)
                    if let status = await child.wait(within: .milliseconds(200)) { return status }
                }
            }
            #expect(status == 3, "cancelled: \(String(describing: status))")
            let closed = try await withTimeout(waitingFor: "the notification to close") {
                for await event in fixture.events {
                    if case .closed(let notification, _) = event, notification.id == shown.id { return true }
                }
                return false
            }
            #expect(closed)
        }
    }
}
