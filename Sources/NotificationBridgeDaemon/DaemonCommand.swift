import Logging
import NotificationBridge
import NotificationBridgeAPI
import ServiceLifecycle

/// What the `notification-bridged` command line asks for.
public enum DaemonCommand: Sendable {
    /// Serve: run the group, which runs the daemon with a graceful shutdown on SIGTERM and SIGINT.
    case serve(NotificationDaemon, ServiceGroup)
    /// Print this text (`--help`, `--version`) and exit.
    case print(String)
}

/// A command line that cannot be run; the message says what to change.
public struct DaemonUsageError: Error, Sendable, CustomStringConvertible {
    public let description: String
}

/// Reads the command line of `notification-bridged` (without the program name) and makes what it asks for.
///
/// `main` only bootstraps logging, calls this and runs the result, so everything it decides can be tested.
///
/// - Parameter logger: the logger to use; its level is set from `--log-level`.
/// - Throws: ``DaemonUsageError`` for an unknown option or a bad value.
public func buildDaemon(
    arguments: [String], logger: Logger = Logger(label: "io.github.NotificationBridge")
) throws(DaemonUsageError) -> DaemonCommand {
    var configuration = DaemonConfiguration(logger: logger)
    configuration.logger.logLevel = .info
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
        var name = argument
        var inlineValue: String?
        if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
            name = String(argument[..<equals])
            inlineValue = String(argument[argument.index(after: equals)...])
        }
        func value() throws(DaemonUsageError) -> String {
            if let inlineValue { return inlineValue }
            guard let next = remaining.popFirst() else { throw DaemonUsageError(description: "\(name) needs a value") }
            return next
        }
        switch name {
        case "-h", "--help":
            return .print(daemonUsage)
        case "--version":
            return .print("notification-bridged \(BridgeAPI.version)")
        case "--replace":
            configuration.replacesRunningDaemon = true
        case "--app-name":
            let text = try value()
            guard !text.isEmpty else { throw DaemonUsageError(description: "--app-name needs a non-empty name") }
            configuration.defaultAppName = text
        case "--destructive-order":
            let text = try value()
            guard let order = NotificationRendering.DestructiveOrder(rawValue: text) else {
                throw DaemonUsageError(description: "--destructive-order is '\(text)'; use first, as-given or last")
            }
            configuration.rendering.destructiveOrder = order
        case "--destructive-marker":
            configuration.rendering.destructiveMarker = try value()
        case "--prompt-command":
            let text = try value()
            guard !text.isEmpty else { throw DaemonUsageError(description: "--prompt-command needs a program") }
            configuration.promptCommand = [text]
        case "--log-level":
            let text = try value()
            guard let level = Logger.Level(rawValue: text) else {
                throw DaemonUsageError(description: "--log-level is '\(text)'; use "
                    + Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))
            }
            configuration.logger.logLevel = level
        default:
            throw DaemonUsageError(description: "unknown option '\(argument)'; see --help")
        }
    }
    let daemon = NotificationDaemon(configuration: configuration)
    let group = ServiceGroup(
        configuration: ServiceGroupConfiguration(
            services: [daemon], gracefulShutdownSignals: [.sigterm, .sigint], logger: configuration.logger))
    return .serve(daemon, group)
}

/// The text of `--help`.
public let daemonUsage = """
    Usage: notification-bridged [options]

    Serves io.github.NotificationBridge1 on the session bus (name io.github.NotificationBridge, object
    /io/github/NotificationBridge): actionable notifications for scripts and apps, through the desktop's
    notification server. Usually started by D-Bus activation or by systemd (notification-bridged.service).

    Options:
      --replace                   take the bus name from a running notification-bridged
      --app-name NAME             app name of notifications posted without 'app-name' (NotificationBridge)
      --destructive-order ORDER   where destructive actions go: first, as-given or last (first)
      --destructive-marker TEXT   text put before a destructive action's label (none)
      --prompt-command PROGRAM    program that asks for typed text where the server has no inline reply
                                  (the first of zenity, kdialog, yad)
      --log-level LEVEL           trace, debug, info, notice, warning, error or critical (info); logs go to
                                  standard error, typed text never does
      --version                   print the version
      -h, --help                  print this help

    Stops gracefully on SIGTERM and SIGINT; exits with status 1 when the session bus goes away.
    """
