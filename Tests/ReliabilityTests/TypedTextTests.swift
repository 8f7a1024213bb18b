import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationBridgeDaemon
import NotificationServerKit
import Testing

extension Reliability {
    /// Typed text full of shell syntax reaches `exec` commands byte for byte, is never interpreted, and never appears
    /// in the daemon's log, even at the most verbose level.
    ///
    /// Text can come two ways: `NotificationReplied(u, s)` from a server with an inline reply, which is a D-Bus string
    /// and so valid UTF-8 (libdbus refuses anything else on both ends), and the prompt program's standard output,
    /// which is any bytes. The daemon reads the prompt's output as UTF-8, replacing each invalid sequence with U+FFFD,
    /// so that the same text can go on in a D-Bus string: that is the exact text the command gets.
    @Suite("typed text")
    struct TypedTextTests {
        /// Records its standard input and `NOTIFICATION_TEXT` in `<its folder>/answer/`.
        static let recorder = """
            #!/bin/sh
            out="$(dirname "$0")/answer"
            mkdir -p "$out.partial"
            cat > "$out.partial/stdin"
            printf '%s' "${NOTIFICATION_TEXT-unset}" > "$out.partial/environment"
            mv "$out.partial" "$out"
            """

        /// Text with a marker to look for in the log, shell syntax that would create files if run, quotes, newlines.
        static func text(in folder: URL) -> String {
            "marker-7f3a91 $(touch \(folder.path)/dollar) `touch \(folder.path)/backtick` ; touch \(folder.path)/semi"
                + " | touch \(folder.path)/pipe && 'single' \"double\" \\ $HOME * ?"
                + "\nsecond line\r\n\tü € 🙂 \u{202E}end"
        }

        static func install(_ script: String, as name: String, in rig: DaemonRig) throws -> URL {
            let path = rig.directory.appendingPathComponent(name)
            try ExecutableScript.write(script, to: path.path)
            return path
        }

        static func answer(_ rig: DaemonRig) async throws -> (stdin: [UInt8], environment: [UInt8]) {
            let folder = rig.directory.appendingPathComponent("answer")
            try await withTimeout(.seconds(20), waitingFor: "the command to record what it got") {
                while !FileManager.default.fileExists(atPath: folder.path) {
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
            return (
                Array(try Data(contentsOf: folder.appendingPathComponent("stdin"))),
                Array(try Data(contentsOf: folder.appendingPathComponent("environment")))
            )
        }

        /// Checks that nothing ran, and that the log, which must hold trace output, shows no part of the text.
        static func checkNotInterpretedNorLogged(_ rig: DaemonRig, daemon: ChildProcess) throws {
            for name in ["dollar", "backtick", "semi", "pipe"] {
                #expect(
                    !FileManager.default.fileExists(atPath: rig.directory.appendingPathComponent(name).path),
                    "'\(name)': the text was run by a shell")
            }
            let log = try Data(contentsOf: rig.log)
            let text = String(decoding: log, as: UTF8.self)
            #expect(text.contains("trace") || text.contains("debug"), "the log was not verbose: \(text.prefix(500))")
            #expect(text.contains("response"), "the response was not logged at all")
            for fragment in ["marker-7f3a91", "second line", "touch", "🙂"] {
                #expect(!text.contains(fragment), "the log shows '\(fragment)': \(text.suffix(3000))")
            }
            #expect(daemon.poll() == nil, "the daemon exited")
        }

        @Test("an inline reply reaches the command byte for byte in its environment and on its standard input")
        func inlineReply() async throws {
            try await DaemonRig.with(.plasma) { rig in
                let daemon = try await rig.startDaemon(["--log-level", "trace"])
                defer { daemon.stop() }
                let command = try Self.install(Self.recorder, as: "record", in: rig)
                _ = try await rig.post([
                    PostKeys.title.name: .string("Ann"), PostKeys.actions.name: textInputActions("answer"),
                    PostKeys.exec.name: .strings([command.path]),
                    PostKeys.timeout.name: .int32(0),
                ])
                let shown = try await rig.nextNotification()
                let text = Self.text(in: rig.directory)
                try await rig.server.reply(id: shown.id, text: text)

                let (stdin, environment) = try await Self.answer(rig)
                #expect(stdin == Array(text.utf8))
                #expect(environment == Array(text.utf8))
                try Self.checkNotInterpretedNorLogged(rig, daemon: daemon)
            }
        }

        @Test("text from the prompt program, invalid UTF-8 included, reaches the command as the daemon read it")
        func promptOutput() async throws {
            try await DaemonRig.with(.dunst) { rig in
                // The prompt prints bytes the test wrote: the text, then sequences that are not UTF-8.
                let typed = rig.directory.appendingPathComponent("typed")
                let invalid: [UInt8] = [
                    0x20, 0xFF, 0xFE, 0x20, 0xC3, 0x28, 0x20, 0xE2, 0x82, 0x20, 0xF0, 0x9F, 0x99, 0x20,
                    0xED, 0xA0, 0x80, 0x20, 0xC0, 0xAF,
                ]
                let text = Self.text(in: rig.directory)
                let bytes = Array(text.utf8) + invalid
                try Data(bytes).write(to: typed)
                let prompt = try Self.install("#!/bin/sh\ncat '\(typed.path)'\n", as: "prompt", in: rig)
                let daemon = try await rig.startDaemon(["--log-level", "trace", "--prompt-command", prompt.path])
                defer { daemon.stop() }
                let command = try Self.install(Self.recorder, as: "record", in: rig)
                _ = try await rig.post([
                    PostKeys.title.name: .string("Ann"), PostKeys.actions.name: textInputActions("answer"),
                    PostKeys.exec.name: .strings([command.path]),
                    PostKeys.timeout.name: .int32(0),
                ])
                let shown = try await rig.nextNotification()
                try await rig.server.invokeAction(id: shown.id, key: "answer")

                let (stdin, environment) = try await Self.answer(rig)
                // Each invalid sequence becomes one U+FFFD (EF BF BD) per maximal invalid subpart, as Swift decodes.
                let expected = Array(String(decoding: bytes, as: UTF8.self).utf8)
                #expect(Array(stdin.prefix(text.utf8.count)) == Array(text.utf8), "the valid text is not byte for byte")
                #expect(stdin == expected)
                #expect(environment == expected)
                #expect(!stdin.contains(0xFF) && String(validating: stdin, as: UTF8.self) != nil)
                try Self.checkNotInterpretedNorLogged(rig, daemon: daemon)
            }
        }
    }
}
