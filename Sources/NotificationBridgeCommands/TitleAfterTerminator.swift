import ArgumentParser

/// `notification-bridge [send] [OPTIONS] -- TITLE [BODY]`: as with notify-send, `--` before the title lets it start
/// with a dash (`-- "-5 degrees"`). After a title, `--` still starts the command that receives the responses; with
/// no title before it, the words after it can only be the title and the body.
enum TitleAfterTerminator {
    /// The `send` command `arguments` mean when they have no title before `--` and one or two words after it; `nil`
    /// for every other command line.
    static func send(_ arguments: [String]) -> SendCommand? {
        guard let terminator = arguments.firstIndex(of: "--") else { return nil }
        let words = Array(arguments[(terminator + 1)...])
        guard (1...2).contains(words.count),
            let (subcommand, rest) = NotificationBridgeCommand.selectedSubcommand(Array(arguments[..<terminator])),
            subcommand == SendCommand.self
        else { return nil }
        // Parsed with a stand-in title: if that is all the positional words there are, the title was missing.
        guard var command = try? SendCommand.parseAsRoot(rest + [standIn]) as? SendCommand,
            command.title == standIn, command.body == nil
        else { return nil }
        command.title = words[0]
        command.body = words.count == 2 ? words[1] : nil
        return command
    }

    private static let standIn = "notification-bridge-title"
}
