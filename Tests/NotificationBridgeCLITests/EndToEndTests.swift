import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationServerKit
import Testing

/// The built `notification-bridge` against the built `notification-bridged` and a scripted notification server, on a
/// private bus: what a user clicks, and what the command prints and exits with.
@Suite("notification-bridge against the daemon")
struct EndToEndTests {
    @Test("send --wait prints the action invoked on the server and exits 0")
    func actionInvoked() async throws {
        try await CLIFixture.with { fixture in
            async let sent = fixture.cli(["send", "Build failed", "--action", "retry=Retry", "--wait", "--print-id"])
            let shown = try await fixture.nextNotification()
            #expect(shown.summary == "Build failed")
            #expect(shown.action("retry")?.label == "Retry")
            try await fixture.server.invokeAction(id: shown.id, key: "retry")
            let result = try await sent
            #expect(result.status == 0, "\(result.standardError)")
            let lines = result.output.split(separator: "\n")
            #expect(lines.count == 2)
            #expect(lines.first?.count == 16, "the id: \(result.output)")
            #expect(lines.last == "retry")
        }
    }

    @Test("a typed reply through Plasma's inline reply is printed after the action; --json holds it too")
    func inlineReply() async throws {
        try await CLIFixture.with(.plasma) { fixture in
            async let sent = fixture.cli([
                "send", "Ann", "Lunch?", "--action", "reply=Reply,text-input=Send,placeholder=Your answer", "--wait",
            ])
            let shown = try await fixture.nextNotification()
            #expect(shown.inlineReplyPlaceholder == "Your answer")
            try await fixture.server.reply(id: shown.id, text: "at noon")
            let result = try await sent
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.output == "reply\nat noon")

            async let asJSON = fixture.cli([
                "send", "Bob", "--action", "reply=Reply,text-input", "--wait", "--json", "--user-info", "mail=42",
            ])
            let second = try await fixture.nextNotification()
            try await fixture.server.reply(id: second.id, text: "ok")
            let json = try await asJSON
            #expect(json.status == 0, "\(json.standardError)")
            let object = try #require(try parsedJSON(json.output) as? [String: Any], "\(json.output)")
            #expect(object[ResponseKeys.action.name] as? String == "reply")
            #expect(object[ResponseKeys.text.name] as? String == "ok")
            #expect((object[ResponseKeys.userInfo.name] as? [String: Any])?["mail"] as? Double == 42)
            #expect((object[ResponseKeys.id.name] as? String)?.count == 16)
        }
    }

    @Test("a dismissal exits 3; with --json it prints an object saying closed")
    func dismissed() async throws {
        try await CLIFixture.with { fixture in
            async let sent = fixture.cli(["send", "Dismiss me", "--action", "ok=OK", "--wait"])
            let shown = try await fixture.nextNotification()
            try await fixture.server.dismiss(id: shown.id)
            let result = try await sent
            #expect(result.status == 3, "\(result.standardError)")
            #expect(result.standardError.contains("dismissed"), "\(result.standardError)")

            async let asJSON = fixture.cli(["send", "Dismiss me too", "--wait", "--json"])
            let second = try await fixture.nextNotification()
            try await fixture.server.dismiss(id: second.id)
            let json = try await asJSON
            #expect(json.status == 3)
            let object = try #require(try parsedJSON(json.output) as? [String: Any], "\(json.output)")
            #expect(object["closed"] as? Bool == true)
        }
    }

    @Test("send without --wait, then wait ID, list, withdraw --all: ids and JSON line up")
    func postThenManage() async throws {
        try await CLIFixture.with { fixture in
            let posted = try await fixture.cli(["send", "Later", "--json", "-A", "open=Open"])
            #expect(posted.status == 0, "\(posted.standardError)")
            let id = try #require((try parsedJSON(posted.output) as? [String: Any])?[ResponseKeys.id.name] as? String)
            let shown = try await fixture.nextNotification()

            let listed = try await fixture.cli(["list", "--json"])
            #expect(listed.status == 0, "\(listed.standardError)")
            let array = try #require(try parsedJSON(listed.output) as? [[String: Any]], "\(listed.output)")
            #expect(
                array.contains {
                    $0[ListedKeys.id.name] as? String == id && $0[PostKeys.title.name] as? String == "Later"
                })

            try await fixture.server.invokeAction(id: shown.id, key: "open")
            let waited = try await fixture.cli(["wait", id])
            #expect(waited.status == 0, "\(waited.standardError)")
            #expect(waited.output == "open")

            let unknown = try await fixture.cli(["wait", "0123456789abcdef"])
            #expect(unknown.status == 2, "an id that names nothing is a usage mistake")
            #expect(unknown.standardError.hasPrefix("notification-bridge: "), "\(unknown.standardError)")

            _ = try await fixture.cli(["send", "Second"])
            _ = try await fixture.nextNotification()
            let withdrawn = try await fixture.cli(["withdraw", "--all", "--json"])
            #expect(withdrawn.status == 0, "\(withdrawn.standardError)")
            #expect((try parsedJSON(withdrawn.output) as? [String])?.count == 1, "\(withdrawn.output)")
        }
    }

    @Test("alert: cancel is 0, the destructive button 1, others from 2; cancel exits 3, a button 0, typed text printed")
    func alertIndexes() async throws {
        try await CLIFixture.with(.plasma) { fixture in
            // Plasma refuses a repeat of the same notification within a second: each alert has its own title.
            func arguments(_ title: String) -> [String] {
                ["alert", title, "--cancel", "Keep", "--destructive", "Delete", "--button", "Move"]
            }
            async let chosen = fixture.cli(arguments("Delete 3 files?"))
            let shown = try await fixture.nextNotification()
            let move = try #require(shown.actions.first { $0.label == "Move" })
            try await fixture.server.invokeAction(id: shown.id, key: move.key)
            let result = try await chosen
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.output == "2\tMove")

            async let cancelled = fixture.cli(arguments("Delete 4 files?") + ["--json"])
            let again = try await fixture.nextNotification()
            let keep = try #require(again.actions.first { $0.label == "Keep" })
            try await fixture.server.invokeAction(id: again.id, key: keep.key)
            let cancel = try await cancelled
            #expect(cancel.status == 3)
            let object = try #require(try parsedJSON(cancel.output) as? [String: Any], "\(cancel.output)")
            #expect(object["index"] as? Double == 0)
            #expect(object["cancelled"] as? Bool == true)

            async let dismissed = fixture.cli(["alert", "Gone", "--cancel", "Close", "--button", "Go"])
            let third = try await fixture.nextNotification()
            try await fixture.server.dismiss(id: third.id)
            let gone = try await dismissed
            #expect(gone.status == 3)
            #expect(gone.output == "0\tClose")

            async let typed = fixture.cli([
                "alert", "Name?", "--cancel", "Cancel", "--button", "Save", "--text-input",
                "plain",
            ])
            let fourth = try await fixture.nextNotification()
            try await fixture.server.reply(id: fourth.id, text: "Ann")
            let named = try await typed
            #expect(named.status == 0, "\(named.standardError)")
            #expect(named.output == "1\tSave\nAnn")
        }
    }

    @Test("category add, list and use; an unknown category is one clear line and exit 1")
    func categories() async throws {
        try await CLIFixture.with { fixture in
            let added = try await fixture.cli([
                "category", "add", "mail", "-A", "reply=Reply,text-input", "-A", "archive=Archive,background",
                "--minimal", "archive",
            ])
            #expect(added.status == 0, "\(added.standardError)")
            let listed = try await fixture.cli(["category", "list"])
            #expect(listed.output.contains("mail\treply=Reply, archive=Archive"), "\(listed.output)")
            let json = try await fixture.cli(["category", "list", "--json"])
            let categories = try parsedJSON(json.output) as? [[String: Any]]
            #expect(categories?.first?[CategoryKeys.id.name] as? String == "mail")

            let unknown = try await fixture.cli(["send", "T", "--category", "nope"])
            #expect(unknown.status == 2, "a usage mistake, though the daemon finds it")
            #expect(unknown.standardError.contains("category add"), "\(unknown.standardError)")
            #expect(unknown.standardError.split(separator: "\n").count == 1)

            let info = try await fixture.cli(["capabilities", "--json"])
            #expect(info.status == 0, "\(info.standardError)")
            #expect(
                (try parsedJSON(info.output) as? [String: Any])?[ServerInformationKeys.serverName.name] as? String
                    == "NotificationServerKit")
        }
    }
}
