import Logging
import NotificationBridgeDaemon
import Testing

/// `buildDaemon(arguments:)`: what `notification-bridged`'s command line makes.
@Suite("Command line")
struct CommandLineTests {
    private func configuration(_ arguments: [String]) throws -> DaemonConfiguration {
        let command = try buildDaemon(arguments: arguments)
        guard case .serve(let daemon, _) = command else { throw CommandLineTestError() }
        return daemon.configuration
    }

    @Test("no arguments: the session bus, logind, the defaults of the installed daemon")
    func defaults() throws {
        let configuration = try configuration([])
        #expect(configuration.bus == .session)
        #expect(configuration.systemBus == .system)
        #expect(!configuration.replacesRunningDaemon)
        #expect(configuration.defaultAppName == "NotificationBridge")
        #expect(configuration.rendering.destructiveOrder == .first)
        #expect(configuration.logger.logLevel == .info)
    }

    @Test("options set the configuration, in both --name value and --name=value form")
    func options() throws {
        let configuration = try configuration([
            "--replace", "--destructive-order=last", "--destructive-marker", "⚠ ", "--log-level", "debug",
            "--prompt-command", "/usr/bin/my-prompt", "--app-name=Scripts",
        ])
        #expect(configuration.replacesRunningDaemon)
        #expect(configuration.rendering.destructiveOrder == .last)
        #expect(configuration.rendering.destructiveMarker == "⚠ ")
        #expect(configuration.logger.logLevel == .debug)
        #expect(configuration.promptCommand == ["/usr/bin/my-prompt"])
        #expect(configuration.defaultAppName == "Scripts")
    }

    @Test("--help and --version print", arguments: [["--help"], ["-h"], ["--version"]])
    func printing(arguments: [String]) throws {
        guard case .print(let text) = try buildDaemon(arguments: arguments) else {
            Issue.record("expected text to print")
            return
        }
        #expect(text.contains("notification-bridged"))
    }

    @Test(
        "bad command lines say what to change",
        arguments: [
            (["--bogus"], "unknown option '--bogus'"), (["--log-level"], "--log-level needs a value"),
            (["--destructive-order", "middle"], "use first, as-given or last"),
            (["--log-level=loud"], "use trace, debug"), (["--app-name="], "non-empty"),
        ])
    func usageErrors(arguments: [String], says: String) {
        let error = #expect(throws: DaemonUsageError.self) { try buildDaemon(arguments: arguments) }
        #expect(error?.description.contains(says) == true, "\(error?.description ?? "")")
    }
}

private struct CommandLineTestError: Error {}
