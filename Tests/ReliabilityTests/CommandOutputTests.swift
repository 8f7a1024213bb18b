import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationServerKit
import Testing

extension Reliability {
    /// What an `exec` command prints reaches the daemon's standard error, which is the journal under systemd, each
    /// line tagged with the notification it answers.
    @Suite("exec command output")
    struct CommandOutputTests {
        @Test("an exec command's standard output and error reach the daemon's log, each line tagged with the id")
        func outputReachesTheLog() async throws {
            try await DaemonRig.with(.plasma) { rig in
                let daemon = try await rig.startDaemon()
                defer { daemon.stop() }
                let command = try TypedTextTests.install(
                    "#!/bin/sh\necho 'archived 3 messages'\necho 'cannot reach the mail server' >&2\n"
                        + "printf 'no newline at the end'\n",
                    as: "archive", in: rig)
                let id = try await rig.post([
                    PostKeys.title.name: .string("Ann"), PostKeys.actions.name: textInputActions("answer"),
                    PostKeys.exec.name: .strings([command.path]), PostKeys.timeout.name: .int32(0),
                ])
                let shown = try await rig.nextNotification()
                try await rig.server.reply(id: shown.id, text: "typed-words-4e1c")

                let expected = [
                    "notification \(id): archived 3 messages\n",
                    "notification \(id): cannot reach the mail server\n",
                    "notification \(id): no newline at the end\n",
                ]
                try await withTimeout(.seconds(20), waitingFor: "the command's output in the daemon's log") {
                    while !expected.allSatisfy(rig.logText.contains) { try await Task.sleep(for: .milliseconds(20)) }
                }
                // The command did not print the text, so the log must not show it.
                #expect(!rig.logText.contains("typed-words-4e1c"))
                #expect(daemon.poll() == nil, "the daemon exited")
            }
        }
    }
}
