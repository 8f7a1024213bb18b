import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import Testing

@testable import NotificationBridgeCommands

/// `notification-bridge history` and `notification-bridge act`, run as a user runs them.
@Suite("history and act on the command line")
struct HistoryCLITests {
    @Test("history and act read their arguments; a missing action or a bad id is a usage mistake")
    func commandLine() throws {
        guard case .command(let history, _) = Invocation.parse(["history", "--json", "-a", "Mail"], invokedAs: "nb")
        else {
            Issue.record("history runs a command")
            return
        }
        #expect((history as? HistoryCommand)?.filter.appName == "Mail")
        #expect((history as? HistoryCommand)?.output.json == true)
        guard
            case .command(let act, _) = Invocation.parse(
                ["act", "0123456789abcdef", "reply", "--text", "On my way"], invokedAs: "nb")
        else {
            Issue.record("act runs a command")
            return
        }
        let command = try #require(act as? ActCommand)
        #expect(command.id == "0123456789abcdef" && command.action == "reply" && command.text == "On my way")
        for arguments in [["act", "0123456789abcdef"], ["act", "not-an-id", "reply"]] {
            guard case .finished(let outcome) = Invocation.parse(arguments, invokedAs: "notification-bridge") else {
                Issue.record("\(arguments) runs a command")
                continue
            }
            #expect(outcome.status == ExitStatus.usage, "\(arguments): \(outcome)")
        }
    }

    @Test("a notification that expired is listed as answerable, answered with act, then listed as responded")
    func expiredThenAnswered() async throws {
        try await CLIFixture.with { fixture in
            let marker = fixture.home.appendingPathComponent("paid")
            let bin = fixture.home.appendingPathComponent("bin")
            try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
            let command = bin.appendingPathComponent("pay").path
            _ = try ExecutableScript.write(
                "#!/bin/sh\nprintf '%s %s' \"$NOTIFICATION_ACTION\" \"$NOTIFICATION_USER_INFO\" > '\(marker.path).tmp'"
                    + " && mv '\(marker.path).tmp' '\(marker.path)'\n",
                to: command)
            let sent = try await fixture.cli([
                "send", "Invoice due", "-a", "Billing", "--action", "pay=Pay", "--user-info", "invoice=17", "-p",
                "--", command,
            ])
            #expect(sent.status == 0, "\(sent.standardError)")
            let id = sent.output.trimmingCharacters(in: .whitespacesAndNewlines)
            let shown = try await fixture.nextNotification()
            #expect(try await fixture.server.expire(id: shown.id))

            let listed = try await withTimeout(waitingFor: "the expired notification in the history") {
                while true {
                    let result = try await fixture.cli(["history", "-a", "Billing"])
                    if result.output.contains(id) { return result }
                    try await Task.sleep(for: .milliseconds(50))
                }
            }
            #expect(listed.status == 0)
            #expect(listed.output.contains("expired, answerable") && listed.output.contains("Invoice due"), "\(listed)")

            let acted = try await fixture.cli(["act", id, "pay"])
            #expect(acted.status == 0, "\(acted.standardError)")
            try await withTimeout(.seconds(10), waitingFor: "the command to run") {
                while !FileManager.default.fileExists(atPath: marker.path) {
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
            #expect(try String(contentsOf: marker, encoding: .utf8) == #"pay {"invoice":17}"#)

            let json = try await fixture.cli(["history", "-a", "Billing", "--json"])
            let entries = try #require(try parsedJSON(json.output) as? [[String: Any]], "\(json.output)")
            let entry = try #require(entries.first { $0[ListedKeys.id.name] as? String == id })
            #expect(entry[HistoryKeys.ending.name] as? String == "responded")
            #expect(entry[HistoryKeys.responseAction.name] as? String == "pay")
            #expect(entry[HistoryKeys.answerable.name] as? Bool == false)

            let again = try await fixture.cli(["act", id, "pay"])
            #expect(again.status != 0)
            #expect(again.standardError.contains("answered already"), "\(again.standardError)")
        }
    }

    @Test("act on a dismissed notification says why it cannot be answered")
    func dismissedIsRefused() async throws {
        try await CLIFixture.with { fixture in
            let sent = try await fixture.cli(["send", "Lunch?", "-a", "Chat", "--action", "yes=Yes", "-p"])
            let id = sent.output.trimmingCharacters(in: .whitespacesAndNewlines)
            let shown = try await fixture.nextNotification()
            try await fixture.server.dismiss(id: shown.id)
            let refused = try await withTimeout(waitingFor: "the dismissed notification in the history") {
                while true {
                    let result = try await fixture.cli(["act", id, "yes"])
                    if !result.standardError.contains("no notification of the history") { return result }
                    try await Task.sleep(for: .milliseconds(50))
                }
            }
            #expect(refused.status != 0)
            #expect(refused.standardError.hasPrefix("notification-bridge: "), "\(refused.standardError)")
            #expect(refused.standardError.contains("dismissed by the user"), "\(refused.standardError)")
        }
    }
}
