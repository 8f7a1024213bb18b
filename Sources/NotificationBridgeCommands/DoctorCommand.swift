import ArgumentParser

/// `doctor`: what a user runs when a notification does not show.
struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Find out why a notification does not show: the daemon, the server, actions, prompt, settings.",
        discussion: """
            Reports the daemon (running, version, how it was started), the notification server (name, version, \
            capabilities, the quirks the bridge applies to it), what actions become on it (buttons, inline reply, \
            the prompt program and whether it can reach a display), the notification portal when sandboxed, the \
            settings of APP when given, and whether D-Bus activation and the systemd user unit are installed; then \
            each problem found with what to do. Asking starts the daemon when D-Bus can. --json prints one object.

            EXIT STATUS:
              0  no problem found
              1  a problem found (listed), or the session bus cannot be reached
              2  usage error
            """)

    @Option(name: .customLong("app"), help: ArgumentHelp("Also show this app's settings.", valueName: "app"))
    var app: String?

    @OptionGroup var output: OutputOptions

    func run() async throws {
        let client = try await BridgeClient.connect()
        let report = await DoctorProbe(connection: client.connection).report(app: app)
        if output.json { Output.printJSON(report.json) } else { print(report.text) }
        if !report.problems.isEmpty { throw CLIFailure("", status: ExitStatus.failure) }
    }
}
