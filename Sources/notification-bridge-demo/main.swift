import Dispatch
import Foundation
import TerminalNotificationServer

// `make demo`: see Demo. This file reads the command line, makes Ctrl-C stop everything, and sets the exit status.

let arguments = CommandLine.arguments.dropFirst()
if arguments.contains("--help") || arguments.contains("-h") {
    print(
        """
        Usage: notification-bridge-demo [--auto]

        Starts a private session bus, notification-terminal-server and notification-bridged on it, and plays a mail
        app that posts two messages now and schedules two more. Type commands for the notifications as they appear.
        --auto (also the default when the input is not a terminal) plays the user by script and exits with status 0
        only if every expected response arrived.
        """)
    exit(0)
}
if let unknown = arguments.first(where: { $0 != "--auto" }) {
    FileHandle.standardError.write(Data("notification-bridge-demo: unknown option '\(unknown)'; see --help\n".utf8))
    exit(2)
}

let auto = arguments.contains("--auto") || isatty(STDIN_FILENO) == 0
let style = TerminalStyle.resolve(
    .auto, environment: ProcessInfo.processInfo.environment, outputIsTerminal: isatty(STDOUT_FILENO) == 1)
let processes = DemoProcesses()

// A write to a terminal server that has stopped must not kill the demo before it cleans up.
signal(SIGPIPE, SIG_IGN)
processes.stopOnInterrupt()

do {
    try await Demo(auto: auto, style: style, processes: processes).run()
    processes.waitIfInterrupted()
} catch {
    // Stopping on Ctrl-C ends the programs the demo talks to, which it may report as a failure: the handler says
    // what happened instead.
    processes.waitIfInterrupted()
    FileHandle.standardError.write(Data("notification-bridge-demo: FAILED: \(error)\n".utf8))
    exit(1)
}
