import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationServerKit
import Testing

/// What `notification-bridge` prints and exits with for each way a notification can end, the hints that reach the
/// server, and alert indexes; the built CLI against the built daemon and a scripted server on a private bus.
@Suite("notification-bridge responses and exit statuses")
struct ResponseTests {
    /// A prompt command that prints `text` as what the user typed.
    static func promptScript(printing text: String) throws -> String {
        let quoted = text.replacingOccurrences(of: "'", with: "'\\''")
        return try ExecutableScript.temporary("#!/bin/sh\nprintf '%s\\n' '\(quoted)'\n", name: "prompt")
    }

    @Test("each documented exit status: 0 chosen, 1 daemon failure, 2 usage (the daemon's too), 3 expired")
    func exitStatuses() async throws {
        try await CLIFixture.with { fixture in
            async let chosen = fixture.cli(["send", "Pick", "-A", "ok=OK", "--wait"])
            let first = try await fixture.nextNotification()
            try await fixture.server.invokeAction(id: first.id, key: "ok")
            #expect(try await chosen.status == 0)

            let unknown = try await fixture.cli(["withdraw", "0123456789abcdef"])
            #expect(unknown.status == 2, "an id that names nothing is a usage mistake, found by the daemon")
            #expect(unknown.standardError.hasPrefix("notification-bridge: "), "\(unknown.standardError)")
            #expect(unknown.standardError.split(separator: "\n").count == 1, "\(unknown.standardError)")

            let usage = try await fixture.cli(["send", "T", "--urgency", "loud"])
            #expect(usage.status == 2)

            async let expired = fixture.cli(["send", "Soon gone", "-A", "ok=OK", "--wait", "--json"])
            let second = try await fixture.nextNotification()
            #expect(try await fixture.server.expire(id: second.id))
            let result = try await expired
            #expect(result.status == 3, "\(result.standardError)")
            let object = try #require(try parsedJSON(result.output) as? [String: Any], "\(result.output)")
            #expect(object["closed"] as? Bool == true)
            #expect(object[ResponseKeys.action.name] is NSNull)
            #expect((object["message"] as? String)?.contains("expired") == true, "\(result.output)")
        }
    }

    @Test("a typed reply through the daemon's prompt (no inline reply on the server) is printed after the action")
    func promptReply() async throws {
        let script = try Self.promptScript(printing: "see you at 12 — ok? `uname` & ünï")
        try await CLIFixture.with(.dunst, daemonArguments: ["--prompt-command", script]) { fixture in
            async let sent = fixture.cli(["send", "Ann", "Lunch?", "-A", "reply=Reply,text-input", "--wait"])
            let shown = try await fixture.nextNotification()
            #expect(shown.inlineReplyPlaceholder == nil)
            #expect(shown.action("reply")?.label == "Reply", "a button that opens the prompt")
            try await fixture.server.invokeAction(id: shown.id, key: "reply")
            let result = try await sent
            #expect(result.status == 0, "\(result.standardError) \(result.output)")
            #expect(result.output == "reply\nsee you at 12 — ok? `uname` & ünï")

            async let asJSON = fixture.cli(["send", "Bob", "-A", "answer=Answer,text-input", "--wait", "--json"])
            let second = try await fixture.nextNotification()
            try await fixture.server.invokeAction(id: second.id, key: "answer")
            let json = try await asJSON
            #expect(json.status == 0, "\(json.standardError)")
            let object = try #require(try parsedJSON(json.output) as? [String: Any], "\(json.output)")
            #expect(object[ResponseKeys.action.name] as? String == "answer")
            #expect(object[ResponseKeys.text.name] as? String == "see you at 12 — ok? `uname` & ünï")
        }
    }

    @Test("--hint values, nested ones included, and -c reach the server's Notify call as given")
    func hintsReachTheServer() async throws {
        try await CLIFixture.with { fixture in
            let sent = try await fixture.cli([
                "send", "Volume", "--hint", "x-nested=<{'a': <[1, 2]>, 'b': <('x', uint32 7)>}>",
                "--hint", "int:value:42", "--hint", "variant:x-list:@as ['p', 'q']", "-c", "device.added",
                "--hint", "int:transient:1", "-u", "critical",
            ])
            #expect(sent.status == 0, "\(sent.standardError)")
            let shown = try await fixture.nextNotification()
            #expect(
                shown.hints["x-nested"]
                    == .variant(
                        .vardict([
                            "a": .array(element: "i", [.int32(1), .int32(2)]),
                            "b": .structure([.string("x"), .uint32(7)]),
                        ])))
            #expect(shown.hints["value"] == .int32(42))
            #expect(shown.hints["x-list"] == .strings(["p", "q"]))
            #expect(shown.category == "device.added")
            #expect(shown.isTransient)
            #expect(shown.urgency == 2)
        }
    }

    @Test("-p prints the id; -r with it updates that notification in place, under the same id")
    func replace() async throws {
        try await CLIFixture.with { fixture in
            let posted = try await fixture.cli(["send", "Copying", "10%", "-p"])
            #expect(posted.status == 0, "\(posted.standardError)")
            let id = posted.output
            #expect(id.count == 16, "\(id)")
            let first = try await fixture.nextNotification()

            let replaced = try await fixture.cli(["send", "Copying", "50%", "-r", id, "-p"])
            #expect(replaced.status == 0, "\(replaced.standardError)")
            #expect(replaced.output == id)
            let events = fixture.events
            let (previous, current) = try await withTimeout(waitingFor: "the server to replace the notification") {
                for await event in events {
                    if case .replaced(let previous, let current) = event { return (previous, current) }
                }
                throw TestSupportError("the server stopped")
            }
            #expect(previous.id == first.id)
            #expect(current.body == "50%")
        }
    }

    @Test(
        "alert indexes as UIAlertView has them: first other is 0 without cancel, 1 with; dismissal without cancel is -1"
    )
    func alertIndexesWithoutCancel() async throws {
        try await CLIFixture.with { fixture in
            async let chosen = fixture.cli([
                "alert", "Update ready", "--button", "Install", "--button", "Later",
                "--json",
            ])
            let shown = try await fixture.nextNotification()
            #expect(shown.actions.map(\.label) == ["Install", "Later"])
            let later = try #require(shown.actions.first { $0.label == "Later" })
            try await fixture.server.invokeAction(id: shown.id, key: later.key)
            let result = try await chosen
            #expect(result.status == 0, "\(result.standardError)")
            let object = try #require(try parsedJSON(result.output) as? [String: Any], "\(result.output)")
            #expect(object["index"] as? Double == 1)
            #expect(object["title"] as? String == "Later")
            #expect(object["cancelled"] as? Bool == false)
            #expect(object["cancel-index"] as? Double == -1)
            #expect(object["first-other-index"] as? Double == 0)

            async let dismissed = fixture.cli(["alert", "Update ready again", "--button", "Install"])
            let again = try await fixture.nextNotification()
            try await fixture.server.dismiss(id: again.id)
            let gone = try await dismissed
            #expect(gone.status == 3)
            #expect(gone.output == "-1\t")

            async let withCancel = fixture.cli(["alert", "Quit?", "--cancel", "Stay", "--button", "Quit", "--json"])
            let third = try await fixture.nextNotification()
            let quit = try #require(third.actions.first { $0.label == "Quit" })
            try await fixture.server.invokeAction(id: third.id, key: quit.key)
            let quitting = try await withCancel
            #expect(quitting.status == 0, "\(quitting.standardError)")
            let quitObject = try #require(try parsedJSON(quitting.output) as? [String: Any], "\(quitting.output)")
            #expect(quitObject["index"] as? Double == 1)
            #expect(quitObject["cancel-index"] as? Double == 0)
            #expect(quitObject["first-other-index"] as? Double == 1)
        }
    }

    @Test("--exec-on ACTION runs the command for that action only, with the response in its environment and stdin")
    func execOn() async throws {
        try await CLIFixture.with(.plasma) { fixture in
            let log = fixture.home.appendingPathComponent("log")
            let script = try ExecutableScript.write(
                "#!/bin/sh\nread -r text\nprintf '%s %s %s\\n' \"$NOTIFICATION_ACTION\" \"$1\" \"$text\" >> '\(log.path)'\n",
                to: fixture.home.appendingPathComponent("record").path)
            func post(_ title: String) async throws -> ServedNotification {
                // --exec-on gives the daemon a command that starts this program again, by its own path: only the
                // built program can be that program.
                let sent = try await fixture.program([
                    "send", title, "-A", "later=Later", "-A", "reply=Reply,text-input", "--exec-on", "reply", "--",
                    script, "--from-bridge",
                ])
                #expect(sent.status == 0, "\(sent.standardError)")
                return try await fixture.nextNotification()
            }
            let first = try await post("First")
            try await fixture.server.invokeAction(id: first.id, key: "later")
            let second = try await post("Second")
            try await fixture.server.reply(id: second.id, text: "on my way")
            try await withTimeout(.seconds(10), waitingFor: "the command to record the reply") {
                while (try? String(contentsOf: log, encoding: .utf8))?.hasSuffix("\n") != true {
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
            // A filter that does not match never starts the command, so 'later' cannot show up afterwards either.
            #expect(try String(contentsOf: log, encoding: .utf8) == "reply --from-bridge on my way\n")
        }
    }

    @Test("--json everywhere: every command prints one value that parses as JSON")
    func jsonEverywhere() async throws {
        try await CLIFixture.with { fixture in
            func json(_ arguments: [String]) async throws -> Any {
                let result = try await fixture.cli(arguments + ["--json"])
                #expect(result.status == 0, "\(arguments): \(result.standardError)")
                #expect(!result.output.contains("\n"), "one line: \(result.output)")
                return try parsedJSON(result.output)
            }
            let added = try await json(["category", "add", "c", "-A", "ok=OK"]) as? [String: Any]
            #expect(added?[CategoryKeys.id.name] as? String == "c")
            #expect((try await json(["category", "list"]) as? [[String: Any]])?.count == 1)
            let sent = try #require(try await json(["send", "T", "--category", "c"]) as? [String: Any])
            let id = try #require(sent[ResponseKeys.id.name] as? String)
            let shown = try await fixture.nextNotification()
            let listed = try #require(try await json(["list"]) as? [[String: Any]])
            #expect(listed.first?[PostKeys.category.name] as? String == "c")
            try await fixture.server.invokeAction(id: shown.id, key: "ok")
            #expect((try await json(["wait", id]) as? [String: Any])?[ResponseKeys.action.name] as? String == "ok")
            #expect(
                (try await json(["server-info"]) as? [String: Any])?[ServerInformationKeys.serverCapabilities.name]
                    is [String])
            let removed = try await json(["category", "remove", "c"]) as? [String: Any]
            #expect(removed?[CategoryKeys.id.name] as? String == "c")
            let otherSent = try await json(["send", "U"]) as? [String: Any]
            let other = try #require(otherSent?[ResponseKeys.id.name] as? String)
            _ = try await fixture.nextNotification()
            #expect(try await json(["withdraw", other]) as? [String] == [other])
            #expect(try await json(["withdraw", "--all"]) as? [String] == [])
        }
    }

    @Test("an unknown category names both ways out: category add, and -c for notify-send's category hint")
    func unknownCategory() async throws {
        try await CLIFixture.with { fixture in
            let result = try await fixture.cli(["send", "T", "--category", "org.example.unregistered"])
            #expect(result.status == 2)
            #expect(result.standardError.contains("category add"), "\(result.standardError)")
            #expect(result.standardError.contains("-c/--server-category"), "\(result.standardError)")
        }
    }
}
