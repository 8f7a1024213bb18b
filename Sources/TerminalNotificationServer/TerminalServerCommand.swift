import ArgumentParser
import DBusCore
import FoundationEssentials
import Glibc
import NotificationBridgeVersion

/// `notification-terminal-server`: the command line. One program runs it (`TerminalServerCommand.main()`) and
/// the daemon's program does too, when it is started under this name (the package installs it as a link to
/// `notification-bridged`).
public struct TerminalServerCommand: AsyncParsableCommand {
    /// The command's name, help text and version.
    public static let configuration = CommandConfiguration(
        commandName: "notification-terminal-server",
        abstract: "A desktop notification server that shows notifications in this terminal.",
        discussion: """
            Owns org.freedesktop.Notifications on the session bus and shows each notification here: its app, title, \
            body (markup rendered), numbered buttons (destructive ones marked) and reply field. Type a button's \
            number to choose it, 'reply TEXT' to answer, 'dismiss' to close, 'list' to see what is showing, 'help' \
            for every command. Commands may also come from a pipe, one per line.

            It advertises actions, inline-reply, body-markup, body-hyperlinks and persistence, and sends \
            ActivationToken before each ActionInvoked. Notifications stay until acted on, unless their app sets a \
            timeout. Colour follows the terminal and NO_COLOR. It stops, giving the name back, at the end of its \
            input (Ctrl-D), on 'quit', on SIGINT and on SIGTERM.

            Over SSH, or anywhere without a session bus: dbus-run-session -- notification-terminal-server
            """,
        version: ProgramVersion.line(for: "notification-terminal-server"))

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Serve the bus at this D-Bus address instead of the session bus.",
            valueName: "address"))
    var address: String?

    @Flag(name: .long, help: "Take org.freedesktop.Notifications over from a server that allows it.")
    var replace = false

    @Option(name: .long, help: ArgumentHelp("When to colour the output.", valueName: "auto|always|never"))
    var color: TerminalStyle.ColorChoice = .auto

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The text before a destructive action's label (as notification-bridged --destructive-marker sets it); "
                + "an empty text marks none.", valueName: "text"))
    var destructiveMarker = TerminalServerConfiguration.defaultDestructiveMarker

    /// Makes the command with every option at its default, for the argument parser.
    public init() {}

    /// Refuses an `--address` that is not a D-Bus address.
    public func validate() throws {
        if let address, address.isEmpty || !address.contains(":") {
            throw ValidationError("--address '\(address)' is not a D-Bus address; it looks like unix:path=/run/…")
        }
    }

    /// Serves notifications in this terminal until its input ends or a signal stops it.
    public func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let configuration = TerminalServerConfiguration(
            bus: address.map(DBusConnection.Bus.address) ?? .session, replacesRunningServer: replace,
            destructiveMarker: destructiveMarker,
            style: .resolve(color, environment: environment, outputIsTerminal: isatty(STDOUT_FILENO) == 1),
            showsPrompt: isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1)
        // A closed terminal must end the server through its input, not kill it in the middle of a write.
        signal(SIGPIPE, SIG_IGN)
        let ending: TerminalServer.Ending
        do {
            ending = try await TerminalServer.run(configuration)
        } catch {
            printError("\(error)")
            throw ExitCode.failure
        }
        switch ending {
        case .endOfInput, .quit, .signal:
            break
        case .replaced:
            printError("another server took over org.freedesktop.Notifications")
        case .busClosed:
            printError("the bus closed")
            throw ExitCode.failure
        }
    }
}

extension TerminalServerCommand {
    /// Parses the process's command line, runs the server, and exits with its status: a program's whole life, on
    /// Swift's default executors.
    public static func runProgram() async -> Never {
        // The async `main()`, not the synchronous one of `ParsableCommand`, which cannot run an async command.
        let main: () async -> Void = Self.main
        await main()
        Glibc.exit(0)
    }
}

extension TerminalStyle.ColorChoice: ExpressibleByArgument {}

/// Writes `message` to standard error, after the program's name.
private func printError(_ message: String) {
    let line = Array("notification-terminal-server: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
}
