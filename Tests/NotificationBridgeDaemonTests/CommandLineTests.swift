import DBusTestSupport
import Logging
import NotificationBridge
import NotificationBridgeAPI
import NotificationBridgeDaemon
import Testing

/// `buildDaemon(arguments:)`: what `notification-bridged`'s command line makes, and what it says about bad input.
@Suite("Command line")
struct CommandLineTests {
    private func configuration(_ arguments: [String]) throws -> DaemonConfiguration {
        guard case .serve(let daemon, _) = try buildDaemon(arguments: arguments) else {
            throw CommandLineTestError("\(arguments) printed a text instead of making a daemon")
        }
        return daemon.configuration
    }

    private func printed(_ arguments: [String]) throws -> String {
        guard case .print(let text) = try buildDaemon(arguments: arguments) else {
            throw CommandLineTestError("\(arguments) made a daemon instead of printing a text")
        }
        return text
    }

    @Test("no arguments: the session bus, logind, the defaults of the installed daemon")
    func defaults() throws {
        let configuration = try configuration([])
        #expect(configuration.bus == .session)
        #expect(configuration.systemBus == .system)
        #expect(!configuration.replacesRunningDaemon)
        #expect(configuration.defaultAppName == "NotificationBridge")
        #expect(configuration.rendering == NotificationRendering(destructiveOrder: .first, destructiveMarker: ""))
        #expect(configuration.promptCommand == nil)
        #expect(configuration.logger.logLevel == .info)
        #expect(configuration.serverTimeout == .seconds(10))
        #expect(configuration.stateDirectory == nil)
    }

    @Test("--replace takes the name from a running daemon")
    func replace() throws {
        #expect(try configuration(["--replace"]).replacesRunningDaemon)
    }

    @Test(
        "each option with a value sets the configuration, as --name value and as --name=value",
        arguments: OptionCase.all, [false, true])
    func option(_ option: OptionCase, joined: Bool) throws {
        let arguments = joined ? ["\(option.name)=\(option.value)"] : [option.name, option.value]
        let configuration = try configuration(arguments)
        #expect(option.isSet(configuration), "\(arguments)")
    }

    @Test("options combine; a value may start with a dash, or be empty where that means something")
    func combined() throws {
        let configuration = try configuration([
            "--replace", "--destructive-order=last", "--destructive-marker", "-> ", "--log-level", "debug",
            "--prompt-command", "/bin/sh", "--app-name=Scripts", "--server-timeout", "2",
        ])
        #expect(configuration.replacesRunningDaemon)
        #expect(configuration.rendering == NotificationRendering(destructiveOrder: .last, destructiveMarker: "-> "))
        #expect(configuration.logger.logLevel == .debug)
        #expect(configuration.promptCommand == ["/bin/sh"])
        #expect(configuration.defaultAppName == "Scripts")
        #expect(configuration.serverTimeout == .seconds(2))
        #expect(try self.configuration(["--destructive-marker", ""]).rendering.destructiveMarker == "")
    }

    @Test("--log-level takes every level swift-log has", arguments: Logger.Level.allCases)
    func logLevel(_ level: Logger.Level) throws {
        #expect(try configuration(["--log-level", level.rawValue]).logger.logLevel == level)
    }

    @Test(
        "--server-timeout takes seconds, fractions too, rounded up to whole milliseconds",
        arguments: [
            ("10", Duration.seconds(10)), ("0.5", .milliseconds(500)), ("2.0005", .milliseconds(2001)),
            ("0.0001", .milliseconds(1)), ("3600", .seconds(3600)), ("1e1", .seconds(10)),
        ])
    func serverTimeout(_ text: String, _ expected: Duration) throws {
        #expect(try configuration(["--server-timeout", text]).serverTimeout == expected)
    }

    @Test("--help and -h print the usage, every option and its default", arguments: ["--help", "-h"])
    func help(_ flag: String) throws {
        // Lines are wrapped to the terminal's width: compare with every run of white space made one space.
        let text = try printed([flag]).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("USAGE: notification-bridged"), "\(text)")
        for option in [
            "--replace", "--app-name <name>", "--destructive-order <order>", "--destructive-marker <text>",
            "--prompt-command <program>", "--log-level <level>", "--server-timeout <seconds>", "--version",
        ] {
            #expect(text.contains(option), "\(option) is missing from the help:\n\(text)")
        }
        for defaultValue in ["(default: NotificationBridge)", "(default: first)", "(default: info)", "(default: 10)"] {
            #expect(text.contains(defaultValue), "\(defaultValue) is missing from the help:\n\(text)")
        }
        #expect(text.contains("D-Bus activation"))
        #expect(text.contains("exits with status 1"))
    }

    @Test("--version prints the program's name and version, and wins over the other options")
    func version() throws {
        #expect(try printed(["--version"]) == "notification-bridged \(BridgeAPI.version)")
        #expect(try printed(["--replace", "--version"]) == "notification-bridged \(BridgeAPI.version)")
    }

    @Test("the manual page generator gets a description of every option")
    func manualDescription() throws {
        let text = try printed(["--experimental-dump-help"])
        #expect(text.contains("\"commandName\" : \"notification-bridged\""), "\(text.prefix(300))")
        #expect(text.contains("\"server-timeout\""))
        #expect(text.contains("NOTIFICATION_PROMPT_TITLE"))
    }

    @Test("completion scripts know the options and their values", arguments: ["bash", "zsh", "fish"])
    func completion(_ shell: String) throws {
        let text = try printed(["--generate-completion-script", shell])
        #expect(text.contains("server-timeout"))
        #expect(text.contains("as-given"))
        #expect(text.contains("critical"))
    }

    @Test(
        "a bad command line says what was wrong and what to do",
        arguments: [
            (["--bogus"], "Unknown option '--bogus'"),
            (["serve"], "Unexpected argument 'serve'"),
            (["--replace=yes"], "'--replace' does not take any value"),
            (["--log-level"], "Missing value for '--log-level <level>'"),
            (["--log-level=loud"], "'loud' is invalid for '--log-level <level>': use trace, debug, info, notice"),
            (
                ["--destructive-order", "middle"],
                "'middle' is invalid for '--destructive-order <order>': use first, as-given or last"
            ),
            (["--app-name", ""], "--app-name is empty; give the name"),
            (["--app-name="], "Missing value for '--app-name <name>'"),
            (["--prompt-command", ""], "--prompt-command is empty; give the program"),
            (["--prompt-command", "/nonexistent/prompt"], "--prompt-command '/nonexistent/prompt' is not an"),
            (["--prompt-command", "no-such-prompt-program"], "give the path of an installed program"),
            (
                ["--server-timeout", "soon"],
                "'soon' is invalid for '--server-timeout <seconds>': give a number of seconds"
            ),
            (
                ["--server-timeout", "0"],
                "--server-timeout is 0; give a number of seconds more than 0 and at most 3600"
            ),
            (["--server-timeout", "-1"], "--server-timeout is -1; give"),
            (["--server-timeout=-1"], "--server-timeout is -1; give"),
            (["--server-timeout", "3600.5"], "--server-timeout is 3600.5; give"),
            (["--server-timeout", "nan"], "--server-timeout is nan; give"),
            (["--server-timeout", "inf"], "--server-timeout is inf; give"),
            (["--generate-completion-script", "tcsh"], "Can't generate completion scripts for 'tcsh'"),
        ])
    func usageError(_ arguments: [String], says: String) {
        let error = #expect(throws: DaemonUsageError.self) { try buildDaemon(arguments: arguments) }
        let text = error?.description ?? ""
        #expect(text.contains(says), "\(text)")
        #expect(text.contains("notification-bridged --help"), "no pointer to --help in:\n\(text)")
    }

    @Test("the program prints a bad command line's error on standard error and exits with status 2")
    func exitStatus() async throws {
        let daemon = try await PackageFiles.daemonExecutable()
        let result = try await ProcessRunner.run([daemon.path, "--server-timeout", "0"], timeout: .seconds(30))
        #expect(result.status == 2)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains("--server-timeout is 0"), "\(result.standardError)")
        let help = try await ProcessRunner.run([daemon.path, "--help"], timeout: .seconds(30))
        #expect(help.status == 0)
        #expect(help.standardOutput.contains("--server-timeout <seconds>"), "\(help.standardOutput)")
    }
}

/// An option that takes a value, a value for it, and how to tell the configuration took it.
struct OptionCase: Sendable, CustomTestStringConvertible {
    var name: String
    var value: String
    var isSet: @Sendable (DaemonConfiguration) -> Bool

    var testDescription: String { "\(name) \(value)" }

    static let all = [
        OptionCase(name: "--app-name", value: "Scripts") { $0.defaultAppName == "Scripts" },
        OptionCase(name: "--destructive-order", value: "as-given") { $0.rendering.destructiveOrder == .asGiven },
        OptionCase(name: "--destructive-order", value: "last") { $0.rendering.destructiveOrder == .last },
        OptionCase(name: "--destructive-marker", value: "(!) ") { $0.rendering.destructiveMarker == "(!) " },
        // A program that exists: one that does not is refused (see the bad command lines).
        OptionCase(name: "--prompt-command", value: "sh") { $0.promptCommand == ["sh"] },
        OptionCase(name: "--log-level", value: "trace") { $0.logger.logLevel == .trace },
        OptionCase(name: "--server-timeout", value: "1.5") { $0.serverTimeout == .milliseconds(1500) },
    ]
}

private struct CommandLineTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
