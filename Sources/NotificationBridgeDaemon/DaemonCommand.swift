internal import ArgumentParser
import Logging
import ServiceLifecycle

/// What the `notification-bridged` command line asks for.
public enum DaemonCommand: Sendable {
    /// Serve: run the group, which runs the daemon. The caller turns SIGTERM and SIGINT into the group's graceful
    /// shutdown (`notification-bridged` reads them on its event loop, so that libdispatch never starts).
    case serve(NotificationDaemon, ServiceGroup)
    /// Print this text on standard output and exit with status 0: `--help`, `--version`, and what the manual page
    /// and completion generators ask for (`--experimental-dump-help`, `--generate-completion-script SHELL`).
    case print(String)
}

/// A command line that cannot be run.
public struct DaemonUsageError: Error, Sendable, CustomStringConvertible {
    /// What was wrong and what to do, then the usage line and where to read more; print it as it is.
    public let description: String
}

/// Reads the command line of `notification-bridged` (without the program name) and makes what it asks for.
///
/// `main` only bootstraps logging, calls this and runs the result, so everything it decides can be tested.
///
/// - Parameters:
///   - arguments: the arguments after the program name: `--name value` and `--name=value` both work.
///   - logger: the logger to use; its level is set from `--log-level`.
///   - whenServing: called once the daemon serves (``DaemonConfiguration/whenServing``).
/// - Throws: ``DaemonUsageError`` for an unknown option, a missing or bad value, or an extra argument.
public func buildDaemon(
    arguments: [String], logger: Logger = Logger(label: "io.github.NotificationBridge"),
    whenServing: (@Sendable () -> Void)? = nil
) throws(DaemonUsageError) -> DaemonCommand {
    var configuration: DaemonConfiguration
    if arguments.isEmpty {
        // How D-Bus activation and the systemd unit start it: without the argument parser, whose reflection over the
        // options took about 2 ms, a fifth of the main thread's CPU time until the bus name is owned.
        configuration = DaemonCommandLine.withoutOptions(DaemonConfiguration(logger: logger))
    } else {
        let commandLine: DaemonCommandLine
        do {
            // The root command has no subcommands, so what is parsed is always a DaemonCommandLine.
            commandLine = try DaemonCommandLine.parse(arguments)
        } catch {
            // --help, --version and the generators' requests end parsing too, as successes with a text to print.
            if DaemonCommandLine.exitCode(for: error) == .success {
                return .print(DaemonCommandLine.fullMessage(for: error))
            }
            throw DaemonUsageError(description: DaemonCommandLine.fullMessage(for: error))
        }
        configuration = commandLine.apply(to: DaemonConfiguration(logger: logger))
    }
    configuration.whenServing = whenServing
    let daemon = NotificationDaemon(configuration: configuration)
    let group = ServiceGroup(
        configuration: ServiceGroupConfiguration(
            services: [.init(service: daemon, successTerminationBehavior: .gracefullyShutdownGroup)],
            logger: configuration.logger))
    return .serve(daemon, group)
}
