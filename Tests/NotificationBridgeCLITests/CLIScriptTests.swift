import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationServerKit
import Testing

/// `notification-bridge` scripts, run as they are written, against the daemon and a scripted server.
@Suite("command line scripts")
struct CLIScriptTests {
    typealias Examples = CLIScripts

    /// Runs an example while `user` acts on what the server shows, and checks what the example printed.
    private static func run(
        _ example: CLIScript, in fixture: CLIFixture, user: (ServedNotification) async throws -> Void = { _ in }
    ) async throws -> (result: ProcessResult, shown: ServedNotification) {
        async let running = fixture.sh(example.script)
        let shown = try await fixture.nextNotification()
        try await user(shown)
        let result = try await running
        #expect(result.status == 0, "\(example): \(result.standardError)")
        #expect(result.standardError.isEmpty, "\(example): \(result.standardError)")
        return (result, shown)
    }

    /// Checks `output` against the example's, with `$id` standing for `id`.
    private static func check(_ output: String, of example: CLIScript, id: String) {
        #expect(output == example.output?.replacingOccurrences(of: "$id", with: id), "\(example)")
    }

    @Test("send -p prints the id; --wait prints the action and the typed text")
    func sendAndWait() async throws {
        try await CLIFixture.with(.plasma) { fixture in
            let sent = try await Self.run(Examples.send, in: fixture)
            #expect(sent.shown.summary == "Backup finished")
            #expect(sent.shown.urgency == 0)
            #expect(sent.shown.icon == "drive-harddisk")
            Self.check(sent.result.output, of: Examples.send, id: sent.result.output)
            #expect(sent.result.output.count == 16)

            let waited = try await Self.run(Examples.sendAndWait, in: fixture) { shown in
                #expect(shown.inlineReplyPlaceholder == "Your answer")
                try await fixture.server.reply(id: shown.id, text: "Yes, 12:30")
            }
            Self.check(waited.result.output, of: Examples.sendAndWait, id: "")
        }
    }

    @Test("category add, then a post with it and --json: one object with the action, the text and user-info")
    func categoryAndJSON() async throws {
        try await CLIFixture.with(.plasma) { fixture in
            let added = try await fixture.sh(Examples.registerCategory.script)
            #expect(added.status == 0, "\(added.standardError)")
            #expect(added.standardOutput.isEmpty)
            let posted = try await Self.run(Examples.categoryJSON, in: fixture) { shown in
                #expect(shown.appName == "Mail")
                #expect(shown.actions.map(\.key) == ["delete", "inline-reply", "archive"])
                try await fixture.server.reply(id: shown.id, text: "Yes, 12:30")
            }
            let object = try #require(try parsedJSON(posted.result.output) as? [String: Any])
            let id = try #require(object[ResponseKeys.id.name] as? String)
            Self.check(posted.result.output, of: Examples.categoryJSON, id: id)
        }
    }

    @Test("alert prints the index and title of the button chosen")
    func alert() async throws {
        try await CLIFixture.with { fixture in
            let answered = try await Self.run(Examples.alert, in: fixture) { shown in
                #expect(shown.body == "This cannot be undone.")
                let move = try #require(shown.actions.first { $0.label == "Move to Trash" }, "\(shown.actions)")
                try await fixture.server.invokeAction(id: shown.id, key: move.key)
            }
            Self.check(answered.result.output, of: Examples.alert, id: "")
        }
    }

    @Test("post with -p, then wait ID prints the action chosen meanwhile")
    func waitLater() async throws {
        try await CLIFixture.with { fixture in
            let waited = try await Self.run(Examples.waitLater, in: fixture) { shown in
                try await fixture.server.invokeAction(id: shown.id, key: "open")
            }
            Self.check(waited.result.output, of: Examples.waitLater, id: "")
        }
    }

    @Test("hints reach the server as given")
    func hints() async throws {
        try await CLIFixture.with { fixture in
            let sent = try await Self.run(Examples.hints, in: fixture)
            #expect(sent.result.standardOutput.isEmpty)
            #expect(sent.shown.hints["value"] == .int32(75))
            #expect(sent.shown.hints["x-canonical-private-synchronous"] == .string("volume"))
            #expect(sent.shown.category == "device")
            #expect(sent.shown.isTransient)
        }
    }

    @Test("a command after -- receives the response")
    func exec() async throws {
        try await CLIFixture.with { fixture in
            let marker = fixture.home.appendingPathComponent("rebuilt")
            let bin = fixture.home.appendingPathComponent("bin")
            try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
            _ = try ExecutableScript.write(
                "#!/bin/sh\nprintf '%s %s' \"$NOTIFICATION_ACTION\" \"$1\" > '\(marker.path).tmp' && "
                    + "mv '\(marker.path).tmp' '\(marker.path)'\n",
                to: bin.appendingPathComponent("rebuild").path)
            let sent = try await Self.run(Examples.exec, in: fixture) { _ in }
            #expect(sent.result.standardOutput.isEmpty)
            try await fixture.server.invokeAction(id: sent.shown.id, key: "retry")
            try await withTimeout(.seconds(10), waitingFor: "the command to run") {
                while !FileManager.default.fileExists(atPath: marker.path) {
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
            #expect(try String(contentsOf: marker, encoding: .utf8) == "retry --quiet")
        }
    }

    @Test("list and withdraw --all act on the app named")
    func listAndWithdraw() async throws {
        try await CLIFixture.with { fixture in
            let mine = try await fixture.cli(["send", "Ann", "-a", "Mail", "-p"])
            _ = try await fixture.nextNotification()
            _ = try await fixture.cli(["send", "Disk", "-a", "Disks"])
            _ = try await fixture.nextNotification()
            let result = try await fixture.sh(Examples.listAndWithdraw.script)
            #expect(result.status == 0, "\(result.standardError)")
            Self.check(result.output, of: Examples.listAndWithdraw, id: mine.output)
            let after = try await fixture.cli(["list", "-a", "Mail"])
            #expect(after.output.isEmpty)
            #expect(try await fixture.cli(["list", "-a", "Disks"]).output.hasSuffix("\tDisk"))
        }
    }

    @Test("capabilities lists the server's name and capabilities")
    func serverInformation() async throws {
        try await CLIFixture.with(.dunst) { fixture in
            let result = try await fixture.sh(Examples.serverInformation.script)
            #expect(result.status == 0, "\(result.standardError)")
            for part in ["server-name: dunst", "server-capabilities: actions, body", "destructive-order: first"] {
                #expect(result.output.contains(part), "\(result.output)")
            }
        }
    }
}
