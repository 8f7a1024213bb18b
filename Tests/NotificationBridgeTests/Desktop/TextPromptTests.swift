import DBusTestSupport
import Foundation
import Testing

@testable import NotificationBridge

@Suite struct TextPromptTests {
    private static let request = TextPromptRequest(
        title: "Mail", message: "Reply to <Ann> & co", placeholder: "Your reply", submitLabel: "Send")

    /// A text a shell would act on, with non-ASCII letters: it must come back exactly as typed.
    private static let hostileText = #"$(rm -rf /); 'x' "y" ünï `id` \n *"#

    @Test func returnsTheTypedTextByteForByteWithoutAShell() async throws {
        let folder = try DesktopFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let replyFile = folder.appendingPathComponent("reply")
        try (Self.hostileText + "\n").write(to: replyFile, atomically: true, encoding: .utf8)
        let script = try DesktopFixtures.writeScript("cat '\(replyFile.path)'", named: "prompt", in: folder)

        let prompt = TextPrompt(command: [script])
        #expect(prompt.isAvailable)
        #expect(prompt.programName == script)
        let reply = try await withTimeout(waitingFor: "the prompt's reply") {
            try await prompt.ask(Self.request)
        }
        #expect(reply.map { Array($0.utf8) } == Array(Self.hostileText.utf8))
    }

    /// It also starts with no blocked signals, whatever the thread that started it blocks.
    @Test func aConfiguredCommandGetsItsArgumentsAsGivenAndTheRequestInItsEnvironment() async throws {
        let folder = try DesktopFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = try DesktopFixtures.writeScript(
            """
            printf '%s\\n' "$@"
            printf '%s|%s|%s|%s\\n' "$NOTIFICATION_PROMPT_TITLE" "$NOTIFICATION_PROMPT_MESSAGE" \
                "$NOTIFICATION_PROMPT_PLACEHOLDER" "$NOTIFICATION_PROMPT_SUBMIT"
            \(DesktopFixtures.printBlockedSignals)
            """, named: "prompt", in: folder)
        let request = TextPromptRequest(
            title: "T $(x)", message: Self.hostileText, placeholder: "--help", submitLabel: "Go; rm")

        let reply = try await withTimeout(waitingFor: "the prompt's reply") {
            try await TextPrompt(command: [script, "--reply", "a b $HOME"]).ask(request)
        }
        #expect(reply == "--reply\na b $HOME\nT $(x)|\(Self.hostileText)|--help|Go; rm\nSigBlk:\t0000000000000000")
    }

    @Test func onlyOneTrailingNewlineIsRemoved() async throws {
        let folder = try DesktopFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = try DesktopFixtures.writeScript(#"printf 'two lines\n\n'"#, named: "prompt", in: folder)
        let empty = try DesktopFixtures.writeScript("exit 0", named: "empty", in: folder)
        #expect(try await TextPrompt(command: [script]).ask(Self.request) == "two lines\n")
        // Submitting an empty field is an answer, not a cancel.
        #expect(try await TextPrompt(command: [empty]).ask(Self.request) == "")
    }

    @Test func cancellingTheDialogGivesNil() async throws {
        let folder = try DesktopFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = try DesktopFixtures.writeScript("echo 'half typed'; exit 1", named: "prompt", in: folder)
        let reply = try await withTimeout(waitingFor: "the cancelled prompt") {
            try await TextPrompt(command: [script]).ask(Self.request)
        }
        #expect(reply == nil)
    }

    @Test func aPromptLeftOpenIsClosedAtTheTimeoutWithItsChildren() async throws {
        let folder = try DesktopFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pidFile = folder.appendingPathComponent("sleeper").path
        // The sleep runs in the background, as a dialog's helper might: it must be stopped too.
        let script = try DesktopFixtures.writeScript(
            "sleep 600 & echo $! > '\(pidFile)'; wait", named: "prompt", in: folder)
        // The script would run for ten minutes on its own: ending within the bound means the timeout stopped it.
        let reply = try await withTimeout(.seconds(120), waitingFor: "the prompt to be stopped at its timeout") {
            try await TextPrompt(command: [script], timeout: .milliseconds(300)).ask(Self.request)
        }
        #expect(reply == nil)
        let sleeper = try #require(
            pid_t(
                try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(
                    in: .whitespacesAndNewlines)))
        try await withTimeout(waitingFor: "the prompt's child to be stopped") {
            while Self.isRunning(sleeper) { try await Task.sleep(for: .milliseconds(10)) }
        }
    }

    /// Whether `pid` runs: a zombie waiting for init to reap it has stopped.
    private static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return false }
        let state = stat[stat.index(after: end)...].trimmingCharacters(in: .whitespaces).first
        return state != "Z" && state != "X"
    }

    @Test func cancellingTheTaskStopsThePrompt() async throws {
        let folder = try DesktopFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = try DesktopFixtures.writeScript("exec sleep 30", named: "prompt", in: folder)
        let asking = Task { try await TextPrompt(command: [script]).ask(Self.request) }
        try await Task.sleep(for: .milliseconds(50))
        asking.cancel()
        let outcome = try await withTimeout(waitingFor: "the cancelled ask to end") {
            await asking.result
        }
        #expect(throws: CancellationError.self) { try outcome.get() }
    }

    /// Fake dialog programs that record their arguments and answer; `names` pick which exist.
    private func makeFakePrograms(_ names: [String], in folder: URL) throws -> URL {
        let bin = folder.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        for name in names {
            try DesktopFixtures.writeScript(
                "printf '%s\\n' \"$0\" \"$@\" > '\(folder.path)/\(name).argv'; echo 'reply from \(name)'",
                named: name, in: bin)
        }
        return bin
    }

    @Test func prefersZenityThenKdialogThenYad() throws {
        let folder = try DesktopFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let all = try makeFakePrograms(["yad", "kdialog", "zenity"], in: folder)
        let other = folder.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        try DesktopFixtures.writeScript("exit 0", named: "kdialog", in: other)
        try DesktopFixtures.writeScript("exit 0", named: "yad", in: other)

        #expect(TextPrompt(searchPath: all.path).programName == "zenity")
        // zenity is preferred even when kdialog comes earlier on the path.
        #expect(TextPrompt(searchPath: other.path + ":" + all.path).programName == "zenity")
        #expect(TextPrompt(searchPath: other.path).programName == "kdialog")
        try FileManager.default.removeItem(at: other.appendingPathComponent("kdialog"))
        #expect(TextPrompt(searchPath: other.path).programName == "yad")
        let nothing = TextPrompt(searchPath: folder.path)
        #expect(!nothing.isAvailable)
        #expect(nothing.programName == nil)
    }

    /// A placeholder is a hint: were it the field's initial text, a user who only confirms would send it as the answer.
    @Test func zenityReceivesTheRequestAsOptionsWithAnEmptyField() async throws {
        let folder = try DesktopFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bin = try makeFakePrograms(["zenity", "kdialog"], in: folder)
        let reply = try await TextPrompt(searchPath: bin.path, display: ":99").ask(Self.request)
        #expect(reply == "reply from zenity")
        let argv = try String(contentsOfFile: folder.path + "/zenity.argv", encoding: .utf8)
        #expect(
            argv == """
                \(bin.path)/zenity
                --entry
                --title=Mail
                --text=Reply to <Ann> & co

                Your reply
                --ok-label=Send

                """)
    }

    @Test func kdialogReceivesTheRequestAsArgumentsWithoutInitialText() async throws {
        let folder = try DesktopFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bin = try makeFakePrograms(["kdialog", "yad"], in: folder)
        let reply = try await TextPrompt(searchPath: bin.path, display: ":99").ask(Self.request)
        #expect(reply == "reply from kdialog")
        let argv = try String(contentsOfFile: folder.path + "/kdialog.argv", encoding: .utf8)
        #expect(
            argv == "\(bin.path)/kdialog\n--title\nMail\n--inputbox\n<qt><p style=\"white-space:pre-wrap\">Reply to "
                + "&lt;Ann&gt; &amp; co</p><p style=\"white-space:pre-wrap\"><i>Your reply</i></p></qt>\n")
    }

    @Test func yadReceivesTheRequestWithItsButtonsAndAnEmptyField() async throws {
        let folder = try DesktopFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bin = try makeFakePrograms(["yad"], in: folder)
        let reply = try await TextPrompt(searchPath: bin.path, display: ":99").ask(Self.request)
        #expect(reply == "reply from yad")
        let argv = try String(contentsOfFile: folder.path + "/yad.argv", encoding: .utf8)
        #expect(
            argv == """
                \(bin.path)/yad
                --entry
                --title=Mail
                --text=Reply to &lt;Ann&gt; &amp; co

                <i>Your reply</i>
                --button=Send:0
                --button=Cancel:1

                """)
    }

    /// Each program shows the message as written: zenity reads plain text with mnemonics after backslash escapes, yad
    /// Pango markup after backslash escapes, kdialog Qt rich text when the text looks like HTML.
    @Test(arguments: [
        (PromptProgram.Kind.zenity, #"Tom &amp; <i>Jerry</i> do__it C:\\new"# + "\n\nan__hint"),
        (.yad, #"Tom &amp;amp; &lt;i&gt;Jerry&lt;/i&gt; do_it C:\\new"# + "\n\n<i>an_hint</i>"),
        (
            .kdialog,
            #"<qt><p style="white-space:pre-wrap">Tom &amp;amp; &lt;i&gt;Jerry&lt;/i&gt; do_it C:\new</p>"#
                + #"<p style="white-space:pre-wrap"><i>an_hint</i></p></qt>"#
        ),
    ])
    func theDialogTextShowsTheMessageAsWritten(kind: PromptProgram.Kind, expected: String) {
        let request = TextPromptRequest(
            title: "T", message: #"Tom &amp; <i>Jerry</i> do_it C:\new"#, placeholder: "an_hint")
        #expect(PromptProgram(kind: kind, executable: "/bin/true").dialogText(request) == expected)
    }

    @Test func graphicalProgramsNeedADisplayAndACommandDoesNot() async throws {
        let folder = try DesktopFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bin = try makeFakePrograms(["zenity"], in: folder)
        let headless = TextPrompt(searchPath: bin.path, display: nil)
        #expect(headless.programName == "zenity", "found")
        #expect(!headless.isAvailable, "but it cannot show a window")
        let error = await #expect(throws: TextPromptError.noDisplay(program: "zenity")) {
            try await headless.ask(Self.request)
        }
        #expect(error?.description.contains("WAYLAND_DISPLAY nor DISPLAY") == true)
        #expect(TextPrompt(searchPath: bin.path, display: "wayland-0").isAvailable)
        let script = try DesktopFixtures.writeScript("#!/bin/sh\nprintf typed\n", named: "ask", in: folder)
        #expect(TextPrompt(command: [script], display: nil).isAvailable, "a configured command needs no display")
    }

    @Test func missingProgramsAreErrorsThatSayWhatToInstall() async throws {
        let folder = try DesktopFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = await #expect(throws: TextPromptError.self) {
            try await TextPrompt(searchPath: folder.path).ask(Self.request)
        }
        #expect(error?.description.contains("install zenity, kdialog or yad") == true)
        await #expect(throws: TextPromptError.commandNotFound("no-such-prompt")) {
            try await TextPrompt(command: ["no-such-prompt"], searchPath: folder.path).ask(Self.request)
        }
        await #expect(throws: TextPromptError.emptyCommand) {
            try await TextPrompt(command: []).ask(Self.request)
        }
    }
}
