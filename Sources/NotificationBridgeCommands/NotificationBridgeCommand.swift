import ArgumentParser
import NotificationBridgeVersion

/// The root of the command tree.
struct NotificationBridgeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notification-bridge",
        abstract: "Post actionable notifications through notification-bridged, and wait for the answer.",
        discussion: """
            Talks to io.github.NotificationBridge on the session bus (D-Bus activation starts the daemon). \
            `send` is the default subcommand: `notification-bridge "Title" "Body"` works like notify-send, and \
            notify-send's options keep their names: -u, -t (--expire-time), -a, -i, -c (the server's category \
            hint; --category is the bridge's action category), -e, -p, -r (--replace-id), -w, -A ([NAME=]Text) \
            and -h/--hint TYPE:NAME:VALUE (-h alone is help). Started as notify-send (a link named so), it takes \
            notify-send's command line exactly and behaves as notify-send does. When a notification does not show, \
            `notification-bridge doctor` says why.

            \(ExitStatus.help)
            """,
        version: ProgramVersion.line(for: "notification-bridge"),
        subcommands: [
            SendCommand.self, AlertCommand.self, WaitCommand.self, ListCommand.self, WithdrawCommand.self,
            CategoryCommand.self, ServerInfoCommand.self, MonitorCommand.self, SettingsCommand.self,
            DoctorCommand.self, HistoryCommand.self, ActCommand.self, FocusCommand.self,
        ],
        defaultSubcommand: SendCommand.self
    )
}

/// Options every command that prints takes.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print one JSON value (an object or an array) instead of human-readable lines.")
    var json = false
}
