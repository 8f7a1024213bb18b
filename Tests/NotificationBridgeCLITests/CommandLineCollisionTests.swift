import DBusTestSupport
import Foundation
import Testing

/// Where `notification-bridge`'s own command line meets notify-send's, notify-send's meaning wins as far as the
/// subcommands allow: a title after `--`, `--category` with a freedesktop category type, a title that is a command's
/// name (which says how to post it).
@Suite("notification-bridge and notify-send's command line")
struct CommandLineCollisionTests {
    @Test("-- before the title: a title that starts with a dash, with options before it")
    func titleAfterTerminator() async throws {
        try await CLIFixture.with { fixture in
            let first = try await fixture.cli(["--", "-5 degrees"])
            #expect(first.status == 0, "\(first.standardError)")
            #expect(try await fixture.nextNotification().summary == "-5 degrees")

            let second = try await fixture.cli(["send", "-u", "critical", "--", "-5 degrees", "-- outside"])
            #expect(second.status == 0, "\(second.standardError)")
            let shown = try await fixture.nextNotification()
            #expect(shown.summary == "-5 degrees" && shown.body == "-- outside" && shown.urgency == 2)

            // After a title, -- still starts the command that receives the responses.
            let dryRun = try await fixture.cli(["Title", "--dry-run", "--", "/bin/true"])
            #expect(dryRun.output.contains("'exec': <['/bin/true']>"), "\(dryRun.output)")
        }
    }

    @Test("--category with a freedesktop category type is notify-send's category hint")
    func categoryType() async throws {
        try await CLIFixture.with { fixture in
            for category in ["email.arrived", "im", "x-example.build,transfer.complete"] {
                let sent = try await fixture.cli(["send", "T", "--category=\(category)"])
                #expect(sent.status == 0, "\(category): \(sent.standardError)")
                #expect(try await fixture.nextNotification().category == category)
            }
            let both = try await fixture.cli(["send", "T", "--category", "email", "-c", "im"])
            #expect(both.status == 2)
            #expect(both.standardError.contains("keep one"), "\(both.standardError)")
        }
    }

    @Test(
        "a title that is a command's name: the command's mistake, then how to post such a title",
        arguments: [["wait"], ["alert"], ["withdraw"]])
    func commandNames(_ arguments: [String]) async throws {
        let result = try await BuiltPrograms.cli(arguments)
        #expect(result.status == 2)
        #expect(
            result.standardError.contains(
                "to post a notification titled '\(arguments[0])', use notification-bridge send "),
            "\(result.standardError)")
        let posted = try await BuiltPrograms.cli(["send", arguments[0], "--dry-run"])
        #expect(posted.status == 0 && posted.output.contains("'title': <'\(arguments[0])'>"), "\(posted.output)")
    }
}
