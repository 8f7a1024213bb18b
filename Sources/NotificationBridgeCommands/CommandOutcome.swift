import ArgumentParser

/// How a command line ends without running anything more: what it prints on each stream and its exit status. Help,
/// `--version` and every usage mistake end so, and so does every failure once it is caught.
struct CommandOutcome: Sendable, Hashable {
    /// What goes to standard output, exactly (help text, a version line).
    var standardOutput: String
    /// What goes to standard error: one message, a newline added when it has none; empty for nothing.
    var standardError: String
    /// The exit status (``ExitStatus``).
    var status: Int32

    /// An outcome with the given output and status.
    init(standardOutput: String = "", standardError: String = "", status: Int32) {
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.status = status
    }

    /// The outcome of a command line that ended with `error`: a ``CLIFailure``'s message and status, an
    /// ArgumentParser error's message (help and `--version` on standard output with status 0; a usage mistake with
    /// status 2, its message starting with the program's name).
    ///
    /// - Parameter hint: said after a usage error's first line, in parentheses.
    init(_ error: any Error, hint: String? = nil) {
        do {
            throw error
        } catch let failure as CLIFailure {
            self.init(standardError: failure.message, status: failure.status)
        } catch let code as ExitCode {
            self.init(status: code.rawValue)
        } catch {
            let code = NotificationBridgeCommand.exitCode(for: error)
            // Help is wrapped to the width of the terminal the command writes to.
            var message = NotificationBridgeCommand.fullMessage(for: error, columns: Terminal.current.columns)
            // One prefix for every message: the program's name, as the CLI's own failures have.
            if message.hasPrefix("Error: ") { message = "notification-bridge: " + message.dropFirst("Error: ".count) }
            if let hint, code == .validationFailure {
                let firstLine = message.prefix { $0 != "\n" }
                message = firstLine + " (\(hint))" + message.dropFirst(firstLine.count)
            }
            if code == .success {
                self.init(standardOutput: message.isEmpty ? "" : message + "\n", status: ExitStatus.success)
            } else {
                self.init(
                    standardError: message,
                    status: code == .validationFailure ? ExitStatus.usage : ExitStatus.failure)
            }
        }
    }

    /// Prints the output, and returns the status.
    func emit() -> Int32 {
        if !standardOutput.isEmpty { print(standardOutput, terminator: "") }
        if !standardError.isEmpty { printError(standardError) }
        return status
    }
}
