import DBusCore
import DBusTestSupport
import Foundation
import NotificationServerKit
import Testing

/// The built `notification-terminal-server` on a private bus, driven through its input as a user (or a script)
/// drives it, and checked through its output and the signals a client receives. It is started as the package
/// installs it, a link to the daemon's program; the first test starts its own program too.
@Suite("notification-terminal-server", .serialized)
struct TerminalServerProcessTests {
    @Test(
        "it owns org.freedesktop.Notifications and advertises what it supports",
        arguments: BuiltProgram.TerminalServerForm.allCases)
    func ownsTheName(_ form: BuiltProgram.TerminalServerForm) async throws {
        try await TerminalServerFixture.with(form: form) { fixture in
            let owner = try #require(try await fixture.client.nameOwner(of: NotificationServer.busName))
            #expect(try await fixture.client.processID(of: owner) == UInt32(fixture.server.child.pid))
            let capabilities = try await fixture.client.call(
                destination: NotificationServer.busName, path: NotificationServer.objectPath,
                interface: NotificationServer.interfaceName, method: "GetCapabilities"
            ).decode([String].self)
            for capability in ["actions", "inline-reply", "body-markup", "persistence"] {
                #expect(capabilities.contains(capability), "capabilities: \(capabilities)")
            }
        }
    }

    @Test("a notify-send post appears with its app, title, rendered body and actions; notify-send hears the choice")
    func notifySendPost() async throws {
        try await TerminalServerFixture.with { fixture in
            // With actions, notify-send waits for the user's choice and prints its key.
            let (reader, writeEnd) = try LineReader.pipe()
            let notifySend: ChildProcess
            do {
                defer { close(writeEnd) }
                notifySend = try ChildProcess.spawn(
                    [
                        "notify-send", "-a", "Backup", "--action=retry=Retry", "--action=logs=Show Logs",
                        "Backup failed", "Disk <b>full</b> &amp; <a href=\"https://example.org/help\">help</a>",
                    ], environment: fixture.bus.environment, standardOutput: writeEnd)
            }
            defer { notifySend.stop(grace: .seconds(1)) }
            let card = try fixture.server.nextCard()
            #expect(card.lines[0].contains("Backup"))
            #expect(card.lines.contains("│ Backup failed"))
            #expect(card.lines.contains("│ Disk full & help <https://example.org/help>"), "\(card.lines)")
            #expect(card.lines.contains("│ [1] Retry"))
            #expect(card.lines.contains("│ [2] Show Logs"))
            fixture.server.send("#\(card.id) 2")
            #expect(try reader.nextLine(within: .seconds(10), waitingFor: "notify-send to print the action") == "logs")
            #expect(await notifySend.wait(within: .seconds(10)) == 0)
        }
    }

    @Test("a gdbus post appears; a destructive label is marked")
    func gdbusPost() async throws {
        try await TerminalServerFixture.with { fixture in
            let result = try await ProcessRunner.run(
                [
                    "gdbus", "call", "--session", "--dest", NotificationServer.busName, "--object-path",
                    NotificationServer.objectPath.rawValue, "--method", "org.freedesktop.Notifications.Notify",
                    "--", "Files", "0", "", "Empty the trash?", "12 files", "['delete', '⚠ Delete', 'keep', 'Keep']",
                    "{}", "-1",
                ], environment: fixture.bus.environment, timeout: .seconds(20))
            #expect(result.status == 0, "gdbus: \(result.standardError)")
            let card = try fixture.server.nextCard()
            #expect(result.output == "(uint32 \(card.id),)")
            #expect(card.lines.contains("│ Empty the trash?"))
            #expect(card.lines.contains("│ [1] ⚠ Delete (destructive)"), "\(card.lines)")
            #expect(card.lines.contains("│ [2] Keep"))
        }
    }

    @Test("choosing an action by number sends ActivationToken, then ActionInvoked, then closes it")
    func chooseAction() async throws {
        try await TerminalServerFixture.with { fixture in
            let id = try await fixture.notify(summary: "Ann", body: "Lunch?", actions: ["yes", "Yes", "no", "No"])
            #expect(try fixture.server.nextCard().id == id)
            fixture.server.send("#\(id) 2")
            try fixture.server.line(containing: "→ #\(id): No")
            let signals = try await fixture.nextSignals(3, waitingFor: "the signals of the action")
            #expect(signals.count == 3)
            #expect(signals[0].hasPrefix("ActivationToken(uint32 \(id), '"), "\(signals)")
            #expect(signals[1] == "ActionInvoked(uint32 \(id), 'no')")
            #expect(signals[2] == "NotificationClosed(uint32 \(id), uint32 2)")
        }
    }

    @Test("a bare number chooses a button of the newest notification; the body click is 'open'")
    func newestAndOpen() async throws {
        try await TerminalServerFixture.with { fixture in
            let first = try await fixture.notify(summary: "First", actions: ["default", "Open", "a", "A"])
            _ = try fixture.server.nextCard()
            let second = try await fixture.notify(summary: "Second", actions: ["b", "B"])
            _ = try fixture.server.nextCard()
            fixture.server.send("1")
            try fixture.server.line(containing: "→ #\(second): B")
            let afterButton = try await fixture.nextSignals(3, waitingFor: "the signals of button 1")
            #expect(afterButton[1] == "ActionInvoked(uint32 \(second), 'b')")
            fixture.server.send("open")
            try fixture.server.line(containing: "→ #\(first): opened")
            let afterOpen = try await fixture.nextSignals(3, waitingFor: "the signals of the click")
            #expect(afterOpen[1] == "ActionInvoked(uint32 \(first), 'default')")
        }
    }

    @Test("an inline reply sends NotificationReplied with the typed text to the app")
    func inlineReply() async throws {
        try await TerminalServerFixture.with { fixture in
            let id = try await fixture.notify(
                summary: "Ann", body: "Lunch?", actions: ["inline-reply", "Reply"],
                hints: ["x-kde-reply-placeholder-text": .string("Your answer")])
            let card = try fixture.server.nextCard()
            #expect(card.lines.contains("│ [reply] Reply “Your answer”"), "\(card.lines)")
            fixture.server.send("reply #\(id)   On my way,  see you")
            let feedback = try fixture.server.line(containing: "→ #\(id):")
            #expect(feedback == "→ #\(id): reply sent")
            let signals = try await fixture.nextSignals(2, waitingFor: "the reply")
            #expect(signals[0] == "NotificationReplied(uint32 \(id), 'On my way,  see you')")
            #expect(signals[1] == "NotificationClosed(uint32 \(id), uint32 3)")
        }
    }

    @Test("dismissing sends NotificationClosed with reason 2; list shows what is left")
    func dismiss() async throws {
        try await TerminalServerFixture.with { fixture in
            let kept = try await fixture.notify(summary: "Kept")
            _ = try fixture.server.nextCard()
            let gone = try await fixture.notify(summary: "Gone")
            _ = try fixture.server.nextCard()
            fixture.server.send("dismiss #\(gone)")
            try fixture.server.line(containing: "→ #\(gone): dismissed")
            #expect(
                try await fixture.nextSignals(1, waitingFor: "the close") == [
                    "NotificationClosed(uint32 \(gone), uint32 2)"
                ])
            fixture.server.send("list")
            #expect(try fixture.server.line(containing: "#").hasPrefix("#\(kept)  Mail · Kept"))
        }
    }

    @Test("a closure by the app is reported")
    func closedByApp() async throws {
        try await TerminalServerFixture.with { fixture in
            let id = try await fixture.notify(summary: "Soon gone")
            _ = try fixture.server.nextCard()
            _ = try await fixture.client.call(
                destination: NotificationServer.busName, path: NotificationServer.objectPath,
                interface: NotificationServer.interfaceName, method: "CloseNotification", arguments: [.uint32(id)])
            #expect(try fixture.server.line(containing: "✕").hasPrefix("✕ #\(id) was withdrawn by its app"))
        }
    }

    @Test(
        "a bad command gets a line that says what to type, and the server keeps serving",
        arguments: [
            ("frobnicate", "unknown command 'frobnicate'; type 'help'"),
            ("#42 1", "#42 is not showing; 'list' shows what is"),
            ("#1 7", "#1 has no button 7; its buttons are 1-2"),
            ("reply #1 hello", "#1 has no reply field"),
            ("reply", "'reply' needs the text to send"),
            ("open #1", "#1 does nothing when clicked"),
        ])
    func badCommand(command: String, message: String) async throws {
        try await TerminalServerFixture.with { fixture in
            let id = try await fixture.notify(summary: "Ann", actions: ["yes", "Yes", "no", "No"])
            try #require(id == 1)
            _ = try fixture.server.nextCard()
            fixture.server.send(command)
            let line = try fixture.server.line(containing: "!")
            #expect(line.hasPrefix("! " + message), "got: \(line)")
            fixture.server.send("#1 1")
            try fixture.server.line(containing: "→ #1: Yes")
            let later = try await fixture.notify(summary: "Later")
            #expect(try fixture.server.nextCard().id == later)
        }
    }

    @Test("help lists the commands")
    func help() async throws {
        try await TerminalServerFixture.with { fixture in
            fixture.server.send("help")
            try fixture.server.line(containing: "reply [#ID] TEXT")
            try fixture.server.line(containing: "dismiss [ID]")
        }
    }

    @Test("the end of the input stops it with status 0 and gives the name back")
    func endOfInput() async throws {
        try await TerminalServerFixture.with { fixture in
            fixture.server.closeInput()
            #expect(await fixture.server.child.wait(within: .seconds(10)) == 0)
            let owner = try await fixture.client.nameOwner(of: NotificationServer.busName)
            #expect(owner == nil, "the name is still owned by \(owner ?? "")")
        }
    }

    @Test("SIGTERM and SIGINT stop it with status 0 and give the name back", arguments: [SIGTERM, SIGINT])
    func signal(number: Int32) async throws {
        try await TerminalServerFixture.with { fixture in
            _ = try await fixture.notify(summary: "Still showing")
            _ = try fixture.server.nextCard()
            fixture.server.child.signal(number)
            #expect(await fixture.server.child.wait(within: .seconds(10)) == 0)
            let owner = try await fixture.client.nameOwner(of: NotificationServer.busName)
            #expect(owner == nil, "the name is still owned by \(owner ?? "")")
        }
    }

    @Test("a second server says the name is taken and exits 1; with --replace it takes over")
    func nameTaken() async throws {
        try await TerminalServerFixture.with { fixture in
            let refused = try await ProcessRunner.run(
                [try BuiltProgram.path("notification-terminal-server"), "--address", fixture.bus.address],
                environment: fixture.bus.environment, timeout: .seconds(20))
            #expect(refused.status == 1)
            #expect(refused.standardError.contains("another notification server is running"), "\(refused)")
            #expect(refused.standardError.contains("--replace"))

            let replacement = try await TerminalServerProcess.start(
                on: fixture.bus, watcher: fixture.client, arguments: ["--replace", "--color", "never"])
            #expect(await fixture.server.child.wait(within: .seconds(10)) == 0)
            let owner = try #require(try await fixture.client.nameOwner(of: NotificationServer.busName))
            #expect(try await fixture.client.processID(of: owner) == UInt32(replacement.child.pid))
        }
    }

    @Test("colour: none into a pipe, ANSI with --color always, none with NO_COLOR")
    func color() async throws {
        for (arguments, environment, colored) in [
            ([String](), [String: String](), false), (["--color", "always"], [:], true),
            (["--color", "auto"], ["NO_COLOR": "1"], false),
        ] {
            try await withPrivateBus { bus in
                let client = try await bus.connect()
                let server = try await TerminalServerProcess.start(
                    on: bus, watcher: client, arguments: arguments, environment: environment)
                let banner = try server.nextLine(waitingFor: "the first line")
                #expect(banner.contains("\u{1B}[") == colored, "\(arguments): \(banner)")
                await client.close()
            }
        }
    }

    @Test("--help describes the options")
    func helpOption() async throws {
        let result = try await ProcessRunner.run(
            [try BuiltProgram.path("notification-terminal-server"), "--help"], timeout: .seconds(20))
        #expect(result.status == 0)
        for option in ["--address", "--replace", "--color", "--destructive-marker", "NO_COLOR"] {
            #expect(result.standardOutput.contains(option), "missing \(option)")
        }
    }
}
