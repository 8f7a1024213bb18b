internal import ArgumentParser
import Logging
import NotificationBridge
import NotificationBridgeAPI
import NotificationBridgeVersion

/// The command line of `notification-bridged`: its options, their checks, and the text of `--help` and of the manual
/// page (which the argument parser generates from this description).
///
/// It has no `run()`: ``buildDaemon(arguments:logger:)`` parses it and makes the daemon, which `main` runs. Options
/// left out keep the defaults of ``DaemonConfiguration``; the help texts name them, since the manual page shows no
/// default of its own. The help texts stay ASCII: the manual page generator drops every other character. As before
/// the argument parser, the argument after an option is its value even when it starts with a dash (a marker `"- "`,
/// a timeout `-1` that `validate()` then refuses with a reason).
struct DaemonCommandLine: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notification-bridged",
        abstract: "D-Bus service for actionable desktop notifications",
        discussion: """
            Serves io.github.NotificationBridge1 on the session bus (name io.github.NotificationBridge, object \
            /io/github/NotificationBridge). It holds the one long-lived connection to the desktop's notification \
            server (org.freedesktop.Notifications), so a notification keeps its actions after the program that \
            posted it has exited, and it sends each response (the chosen action, typed text, the dismissal) to \
            exactly one place: the poster, a command or an application.

            It is not normally started by hand: the first call to its bus name starts it through D-Bus activation, \
            which hands over to the systemd user unit notification-bridged.service where systemd runs the session, \
            and runs the program directly otherwise. To change its options there: \
            systemctl --user edit notification-bridged.

            Logs go to standard error; under systemd they are in the journal: \
            journalctl --user -u notification-bridged. Typed text is never logged.

            It stops gracefully on SIGTERM and SIGINT, and when another notification-bridged takes over with \
            --replace (exit status 0). It exits with status 1 when it cannot serve (the bus name is taken, the \
            session bus cannot be reached or goes away, the state folder cannot be opened), and with status 2 \
            when the command line is wrong.
            """,
        version: ProgramVersion.line(for: "notification-bridged"))

    /// The longest `--server-timeout`: past it, `Post` would hang for longer than anyone waits for a button.
    static let longestServerTimeout = 3600.0

    @Flag(help: "Take the bus name from a running notification-bridged, which then stops.")
    var replace = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The app name of notifications posted without 'app-name' (default: NotificationBridge).",
            valueName: "name"))
    var appName: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Where destructive actions go among the buttons: first, as-given or last (default: first).",
            valueName: "order"),
        completion: .list(NotificationRendering.DestructiveOrder.allCases.map(\.rawValue)),
        transform: Self.destructiveOrder)
    var destructiveOrder: NotificationRendering.DestructiveOrder?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Text put before a destructive action's label, since no notification server colours buttons "
                + "(default: none; on notification-terminal-server, the ⚠ it marks).",
            valueName: "text"))
    var destructiveMarker: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The program that asks for typed text where the notification server has no inline reply "
                + "(default: the first of zenity, kdialog and yad found).",
            discussion: """
                It is run with the request in NOTIFICATION_PROMPT_TITLE, NOTIFICATION_PROMPT_MESSAGE, \
                NOTIFICATION_PROMPT_PLACEHOLDER and NOTIFICATION_PROMPT_SUBMIT; it prints the text and exits 0, or \
                exits non-zero when the user cancels.
                """,
            valueName: "program"),
        completion: .file())
    var promptCommand: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "How many days the history keeps notifications that ended, for ListHistory and Act (default: 7; 0 keeps "
                + "none).",
            valueName: "days"),
        transform: Self.historyDays)
    var historyDays: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "How many notifications that ended the history keeps at most, the newest (default: 500; 0 keeps none).",
            valueName: "count"),
        transform: Self.historyLimit)
    var historyLimit: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "How much to log: trace, debug, info, notice, warning, error or critical (default: info).",
            valueName: "level"),
        completion: .list(Logger.Level.allCases.map(\.rawValue)),
        transform: Self.logLevel)
    var logLevel: Logger.Level?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "How long the notification server may take to answer before Post fails with Error.ServerTimeout "
                + "(default: 10).",
            discussion: "A number of seconds, more than 0 and at most 3600; fractions such as 0.5 are allowed.",
            valueName: "seconds"),
        transform: Self.seconds)
    var serverTimeout: Double?

    func validate() throws {
        if appName?.isEmpty == true {
            throw ValidationError(
                "--app-name is empty; give the name that notifications posted without 'app-name' show, or leave "
                    + "the option out for NotificationBridge.")
        }
        if promptCommand?.isEmpty == true {
            throw ValidationError(
                "--prompt-command is empty; give the program that asks for typed text (a name on PATH or a path), "
                    + "or leave the option out to use zenity, kdialog or yad.")
        }
        // Checked now, on the daemon's PATH: a prompt command that cannot run would fail only when a user types.
        if let promptCommand, !promptCommand.isEmpty, ExecRule.resolve(promptCommand) == nil {
            throw ValidationError(
                "--prompt-command '\(promptCommand)' is not an executable file (looked up on PATH unless it holds a "
                    + "'/'); give the path of an installed program, or leave the option out to use zenity, kdialog "
                    + "or yad.")
        }
        if let serverTimeout, !(serverTimeout > 0 && serverTimeout <= Self.longestServerTimeout) {
            throw ValidationError(
                "--server-timeout is \(serverTimeout.formatted); give a number of seconds more than 0 and at most "
                    + "\(Self.longestServerTimeout.formatted), such as 10 or 0.5.")
        }
    }

    /// The configuration of a command line without options, starting from `base`: what D-Bus activation and the
    /// systemd unit start.
    static func withoutOptions(_ base: DaemonConfiguration) -> DaemonConfiguration {
        var configuration = base
        configuration.replacesRunningDaemon = false
        configuration.logger.logLevel = .info
        return configuration
    }

    /// The configuration the options ask for, starting from `base`.
    func apply(to base: DaemonConfiguration) -> DaemonConfiguration {
        var configuration = Self.withoutOptions(base)
        if replace { configuration.replacesRunningDaemon = true }
        if let appName { configuration.defaultAppName = appName }
        if let destructiveOrder { configuration.rendering.destructiveOrder = destructiveOrder }
        if let destructiveMarker { configuration.rendering.destructiveMarker = destructiveMarker }
        if let promptCommand { configuration.promptCommand = [promptCommand] }
        if let logLevel { configuration.logger.logLevel = logLevel }
        if let historyDays { configuration.historyBounds.days = historyDays }
        if let historyLimit { configuration.historyBounds.limit = historyLimit }
        if let serverTimeout {
            // Whole milliseconds, rounded up: the bus counts in them, and a timeout must not round down to none.
            configuration.serverTimeout = .milliseconds(Int64((serverTimeout * 1000).rounded(.up)))
        }
        return configuration
    }

    // The conversions: a value that is not one of these fails with the option's name, the value and this message.

    private static func destructiveOrder(_ text: String) throws -> NotificationRendering.DestructiveOrder {
        guard let order = NotificationRendering.DestructiveOrder(rawValue: text) else {
            throw ValidationError("use first, as-given or last")
        }
        return order
    }

    private static func logLevel(_ text: String) throws -> Logger.Level {
        guard let level = Logger.Level(rawValue: text) else {
            throw ValidationError("use " + Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return level
    }

    private static func historyDays(_ text: String) throws -> Int {
        guard let days = Int(text), (0...36_500).contains(days) else {
            throw ValidationError("give a whole number of days from 0 to 36500, such as 7")
        }
        return days
    }

    private static func historyLimit(_ text: String) throws -> Int {
        guard let count = Int(text), (0...HistoryBounds.maximumLimit).contains(count) else {
            throw ValidationError("give a whole number from 0 to \(HistoryBounds.maximumLimit), such as 500")
        }
        return count
    }

    private static func seconds(_ text: String) throws -> Double {
        guard let seconds = Double(text) else { throw ValidationError("give a number of seconds, such as 10 or 0.5") }
        return seconds
    }
}

extension Double {
    /// The number as a user typed it: `10`, not `10.0`.
    fileprivate var formatted: String {
        rounded() == self && abs(self) < 1e15 ? String(Int64(self)) : String(self)
    }
}
