import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationBridgeDaemon
import NotificationServerKit
import Testing

/// Responses handed to a command (`exec`).
@Suite("exec commands")
struct ExecRouteTests {
    /// A command that records what it was given in `<its folder>/../answer/`, then exits.
    static let recorder = """
        #!/bin/sh
        out="$(dirname "$0")/../answer"
        mkdir -p "$out.partial"
        printf '%s\\n' "$@" > "$out.partial/arguments"
        printf '%s' "$NOTIFICATION_ID" > "$out.partial/id"
        printf '%s' "$NOTIFICATION_ACTION" > "$out.partial/action"
        printf '%s' "$NOTIFICATION_USER_INFO" > "$out.partial/user-info"
        printf '%s' "${NOTIFICATION_TEXT-unset}" > "$out.partial/text-environment"
        printf '%s' "${NOTIFICATION_TEXT_TRUNCATED-unset}" > "$out.partial/text-truncated"
        printf '%s' "${XDG_ACTIVATION_TOKEN-unset} ${DESKTOP_STARTUP_ID-unset}" > "$out.partial/token"
        cat > "$out.partial/text-input"
        mv "$out.partial" "$out"
        """

    /// Installs the recorder as `$HOME/bin/answer-ann`; returns the folder its answers appear in.
    static func installRecorder(in fixture: DaemonFixture) throws -> URL {
        let bin = fixture.directory.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let path = bin.appendingPathComponent("answer-ann")
        // Close-on-exec: a bus another test starts meanwhile must not keep the script open ("Text file busy").
        try ExecutableScript.write(recorder, to: path.path)
        return fixture.directory.appendingPathComponent("answer")
    }

    static func waitForAnswer(_ folder: URL) async throws -> (String) throws -> String {
        try await withTimeout(waitingFor: "the command to record its answer") {
            while !FileManager.default.fileExists(atPath: folder.path) { try await Task.sleep(for: .milliseconds(20)) }
        }
        return { name in try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8) }
    }

    @Test("a script posts with exec and exits; typed text reaches the command byte for byte, in env and on stdin")
    func typedTextReachesCommand() async throws {
        try await DaemonFixture.with(.plasma) { fixture in
            let answer = try Self.installRecorder(in: fixture)
            let posted = try await fixture.sh(GdbusScripts.exec.script)
            #expect(posted.status == 0, "\(posted.standardError)")
            let id = try postedID(posted.output)
            let shown = try await fixture.nextNotification()
            #expect(shown.actions.map(\.key) == ["inline-reply"])

            let text =
                "Sure! $(touch pwned) `id` 'single' \"double\" ; | & < > * ? \\ $HOME"
                + "\nsecond line\tü € 🙂\n"
            try await fixture.scripted.reply(id: shown.id, text: text)

            let read = try await Self.waitForAnswer(answer)
            #expect(try read("text-input") == text)
            #expect(try read("text-environment") == text)
            #expect(try read("text-truncated") == "unset", "short text is whole in NOTIFICATION_TEXT")
            #expect(try read("id") == id)
            #expect(try read("action") == "answer")
            #expect(try read("user-info") == #"{"thread":"lunch"}"#)
            #expect(try read("arguments") == "--from-notification\n")
            #expect(try read("token") == "unset unset", "a background action gets no activation token")
            #expect(!FileManager.default.fileExists(atPath: fixture.directory.appendingPathComponent("pwned").path))
        }
    }

    @Test("1 MiB of typed text reaches the command: all of it on stdin, the start of it in NOTIFICATION_TEXT")
    func largeTextReachesCommand() async throws {
        try await DaemonFixture.with(.plasma) { fixture in
            let answer = try Self.installRecorder(in: fixture)
            let posted = try await fixture.sh(GdbusScripts.exec.script)
            #expect(posted.status == 0, "\(posted.standardError)")
            let shown = try await fixture.nextNotification()
            // Two bytes, then three-byte characters: the 64 KiB mark falls inside one, which must not be split.
            let text = "ab" + String(repeating: "€", count: 349_525)
            #expect(text.utf8.count > 1 << 20)
            try await fixture.scripted.reply(id: shown.id, text: text)

            let read = try await Self.waitForAnswer(answer)
            let input = try Data(contentsOf: answer.appendingPathComponent("text-input"))
            #expect(input == Data(text.utf8), "standard input holds \(input.count) bytes of \(text.utf8.count)")
            let variable = try read("text-environment")
            #expect(variable == "ab" + String(repeating: "€", count: 21_844))
            #expect(try read("text-truncated") == "1")
            #expect(try read("action") == "answer")
        }
    }

    @Test("a foreground action gives the command the activation token; a plain action has no text")
    func foregroundToken() async throws {
        try await DaemonFixture.with { fixture in
            let answer = try Self.installRecorder(in: fixture)
            let command = fixture.directory.appendingPathComponent("bin/answer-ann").path
            _ = try await fixture.post([
                PostKeys.title.name: .string("Ann"), PostKeys.actions.name: ActionList.plain(id: "open"),
                PostKeys.exec.name: .strings([command]),
            ])
            let shown = try await fixture.nextNotification()
            try await fixture.scripted.invokeAction(id: shown.id, key: "open", activationToken: "token-42")

            let read = try await Self.waitForAnswer(answer)
            #expect(try read("action") == "open")
            #expect(try read("token") == "token-42 token-42")
            #expect(try read("text-environment") == "unset")
            #expect(try read("text-truncated") == "unset")
            #expect(try read("text-input") == "")
            #expect(try read("user-info") == "{}")
        }
    }
}
