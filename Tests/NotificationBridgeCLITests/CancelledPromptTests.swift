import DBusTestSupport
import Foundation
import Testing

/// `send --wait` and `wait ID` end when the prompt for typed text is cancelled, as for any notification that closes
/// without a response.
@Suite("Cancelled prompts on the command line")
struct CancelledPromptTests {
    @Test("a cancelled prompt ends send --wait and wait ID with exit status 3")
    func cancelledPromptEndsWaits() async throws {
        let cancel = try ExecutableScript.temporary("#!/bin/sh\nexit 1\n", name: "prompt-cancel")
        try await CLIFixture.with(.dunst, daemonArguments: ["--prompt-command", cancel]) { fixture in
            let sent = try await fixture.cli(["send", "Ann", "Lunch?", "-A", "reply=Reply,text-input", "-p"])
            let id = sent.output.trimmingCharacters(in: .whitespacesAndNewlines)
            let shown = try await fixture.nextNotification()
            async let waitedByID = fixture.cli(["wait", id])
            async let waitedBySend = fixture.cli(["send", "Bob", "-A", "answer=Answer,text-input", "--wait"])
            let second = try await fixture.nextNotification()
            // Whether `wait` reaches the daemon before the prompt ends or after, it must end the same way.

            try await fixture.server.invokeAction(id: shown.id, key: "reply")
            try await fixture.server.invokeAction(id: second.id, key: "answer")
            let byID = try await waitedByID
            let bySend = try await waitedBySend
            #expect(byID.status == 3, "\(byID.standardError)")
            #expect(bySend.status == 3, "\(bySend.standardError)")
            #expect(byID.standardError.contains("without"), "\(byID.standardError)")
        }
    }
}
