import DBusCore
import DBusTestSupport

@testable import NotificationBridgeCommands

/// Runs a `notification-bridge` command line in the test's own process, as swift-argument-parser's tests run commands:
/// the command writes to a recording terminal and talks on the test's bus, and its output and exit status come back
/// as a ``ProcessResult``, as if the program had run.
///
/// What only a process of its own shows stays with the built program: exit by a signal, Ctrl-C during a wait,
/// notify-send's command line, the exec filter, a time zone or environment of its own.
enum InProcessCommandLine {
    /// Runs `arguments` (without the program's name) on `bus`, waiting no longer than `timeout`.
    ///
    /// - Parameter columns: the width of the terminal help text is wrapped to; the test process's own when `nil`.
    /// - Throws: ``TestSupportError`` when the command line is one only the program runs, or the time passes.
    static func run(
        _ arguments: [String], bus: DBusConnection.Bus, columns: Int? = nil, timeout: Duration = .seconds(20)
    ) async throws -> ProcessResult {
        let terminal = Terminal.recording(columns: columns)
        let status = try await withTimeout(timeout, waitingFor: "notification-bridge \(arguments) to finish") {
            await Terminal.$current.withValue(terminal) {
                await BridgeClient.$bus.withValue(bus) {
                    await Invocation.parse(arguments, invokedAs: "notification-bridge").execute()
                }
            }
        }
        guard let status else {
            throw TestSupportError("notification-bridge \(arguments) runs only as a program; run the built one")
        }
        return ProcessResult(
            status: status, standardOutput: terminal.standardOutput, standardError: terminal.standardError)
    }
}
