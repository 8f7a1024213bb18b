import NotificationBridgeAPI
import Testing

@testable import NotificationBridgeCommands

/// `send TITLE [BODY]` is read without ArgumentParser: it must mean exactly what the command tree makes of it, and
/// anything else must still reach the tree.
@Suite("plain send")
struct PlainSendTests {
    /// What the tree makes of `arguments`, when it makes a `send` of them.
    private func treeRequest(_ arguments: [String]) throws -> WireEntries? {
        let command = try NotificationBridgeCommand.parseSelectedSubcommand(arguments)
        return try (command as? SendCommand)?.request()
    }

    @Test(
        "one or two plain words, with or without 'send', make the request the tree makes",
        arguments: [
            ["Title"], ["Title", "Body"], ["send", "Title"], ["send", "Title", "Body text"],
            ["Build done", "in 3 min: 'ok' \"quoted\" $HOME `x`"], ["Ünïcödé ✓", "🎉"], ["", ""], ["send", "list"],
            ["send", "send"], ["send", "wait", "-"],
        ])
    func sameAsTree(_ arguments: [String]) throws {
        let plain = PlainSend(arguments)
        if arguments.last == "-" {
            #expect(plain == nil, "a word starting with '-' is an option or stdin: for the tree")
            return
        }
        let tree = try #require(try treeRequest(arguments), "the tree reads \(arguments) as send")
        #expect(plain?.request == tree.value)
    }

    @Test(
        "options, help, subcommands and extra words go to the tree",
        arguments: [
            [], ["send"], ["--help"], ["-h"], ["help"], ["send", "help"], ["Title", "--wait"], ["-u", "low", "Title"],
            ["Title", "Body", "Third"], ["list"], ["wait", "abc"], ["Title", "--", "/bin/true"], ["--version"],
            ["settings"],
        ])
    func others(_ arguments: [String]) {
        #expect(PlainSend(arguments) == nil)
    }
}
