import Testing

@testable import TerminalNotificationServer

/// Reading the lines a user types. No bus.
@Suite("Terminal commands")
struct TerminalCommandTests {
    @Test(
        "lines that are commands",
        arguments: [
            ("2", TerminalCommand.choose(.newest, button: .number(2))),
            ("#3 2", .choose(.id(3), button: .number(2))),
            ("3 2", .choose(.id(3), button: .number(2))),
            ("#3 mark-read", .choose(.id(3), button: .name("mark-read"))),
            ("#3 Mark as Read", .choose(.id(3), button: .name("Mark as Read"))),
            ("a #3 1", .choose(.id(3), button: .number(1))),
            ("action 1", .choose(.newest, button: .number(1))),
            ("#4", .show(.id(4))),
            ("show", .show(.newest)),
            ("reply On my  way", .reply(.newest, text: "On my  way")),
            ("  r #5 5 minutes late ", .reply(.id(5), text: "5 minutes late")),
            ("open", .open(.newest)),
            ("o 9", .open(.id(9))),
            ("d", .dismiss(.newest)),
            ("dismiss #2", .dismiss(.id(2))),
            ("dismiss all", .dismissAll),
            ("LS", .list),
            ("?", .help),
            ("quit", .quit),
            ("   ", .nothing),
        ])
    func parses(line: String, command: TerminalCommand) throws {
        #expect(try TerminalCommand(parsing: line) == command)
    }

    @Test(
        "lines that are not, with what to type instead",
        arguments: [
            ("foo", "unknown command 'foo'; type 'help' for the commands"),
            ("#x 1", "'#x' is not a notification number; write it as #3 ('list' shows them)"),
            ("#0", "'#0' is not a notification number; write it as #3 ('list' shows them)"),
            ("0", "buttons are numbered from 1"),
            ("reply #2", "'reply' needs the text to send: 'reply On my way' or 'reply #3 On my way'"),
            ("dismiss 2 3", "unexpected '3' after 'dismiss 2'; type 'help' for the commands"),
            ("list all", "unexpected 'all' after 'list'; type 'help' for the commands"),
            ("action", "'action' needs a button: 'action 2' or 'action #3 2'"),
        ])
    func refuses(line: String, message: String) {
        #expect(throws: TerminalCommandError(message)) { try TerminalCommand(parsing: line) }
    }
}
