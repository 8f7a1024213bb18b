import ArgumentParser

extension NotificationBridgeCommand {
    /// Parses `arguments` as the whole command tree does, reflecting only the subcommand they select.
    ///
    /// ArgumentParser builds every command it passes through by reflection, and on its way through the root it also
    /// builds `send` (the default subcommand) once or twice more, only to learn whether it takes all remaining input:
    /// about a millisecond of every run. So the subcommand the tree would choose — the one named first, else `send` —
    /// is parsed on its own. Whatever that does not parse cleanly (help, `--version`, a usage error) is parsed again
    /// through the whole tree, so that what it prints and its exit status are the tree's.
    static func parseSelectedSubcommand(_ arguments: [String]) throws -> any ParsableCommand {
        if let (subcommand, rest) = selectedSubcommand(arguments),
            let command = try? subcommand.parseAsRoot(rest), type(of: command) == subcommand
        {
            return command
        }
        return try parseAsRoot(arguments)
    }

    /// The leaf subcommand the tree would parse `arguments` with, and the arguments it gets; `nil` for anything the
    /// tree handles itself (`help`, a subcommand with subcommands of its own).
    static func selectedSubcommand(_ arguments: [String]) -> (any ParsableCommand.Type, [String])? {
        if let first = arguments.first {
            if let named = subcommandNamed(first) {
                return named.configuration.subcommands.isEmpty ? (named, Array(arguments.dropFirst())) : nil
            }
            if first == "help" { return nil }
        }
        guard let defaultSubcommand = configuration.defaultSubcommand else { return nil }
        return (defaultSubcommand, arguments)
    }

    /// The subcommand whose name or alias is `word`, if any.
    static func subcommandNamed(_ word: String) -> (any ParsableCommand.Type)? {
        configuration.subcommands.first {
            $0.configuration.commandName == word || $0.configuration.aliases.contains(word)
        }
    }
}
