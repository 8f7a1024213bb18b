import ArgumentParser
import EventLoopExecutor

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Parses the command line on the main thread, runs the command and turns every outcome into one of the documented
/// exit statuses (``ExitStatus``): usage errors exit 2 (not ArgumentParser's 64), failures print one line on standard
/// error, never a stack trace.
@main
enum Main {
    static func main() {
        let invokedAs = CommandLine.arguments.first ?? ""
        let arguments = Array(CommandLine.arguments.dropFirst())
        if invokedAs.split(separator: "/").last == Substring(NotifySend.programName) {
            exit(NotifySend.run(arguments, invokedAs: invokedAs))
        }
        exit(run(arguments))
    }

    static func run(_ arguments: [String]) -> Int32 {
        if arguments.first == ExecFilter.flag { return ExecFilter.run(arguments) }
        if let plain = PlainSend(arguments) {
            do {
                try plain.post()
                return ExitStatus.success
            } catch {
                return status(for: error)
            }
        }
        do {
            let rewritten = NotifySendHints.rewrite(ShortFlags.rewrite(arguments))
            var command: any ParsableCommand
            if let send = TitleAfterTerminator.send(rewritten) {
                try send.validate()
                command = send
            } else {
                command = try NotificationBridgeCommand.parseSelectedSubcommand(rewritten)
            }
            if let asyncCommand = command as? any AsyncParsableCommand {
                // Handed to the task, which alone uses it from then on.
                nonisolated(unsafe) var asyncCommand = asyncCommand
                // Ctrl-C while a command waits for a response closes the notification (WaitCancellation).
                runToEnd(signals: [SIGINT], onSignal: { _ in WaitCancellation.shared.interrupted() }) {
                    try await asyncCommand.run()
                }
            }
            try command.run()
            return ExitStatus.success
        } catch {
            // `notification-bridge wait` alone may have meant a notification titled "wait", as with notify-send.
            var hint: String?
            if arguments.count == 1, let word = arguments.first, word != SendCommand.configuration.commandName,
                NotificationBridgeCommand.subcommandNamed(word) != nil
            {
                hint =
                    "'\(word)' is a command; to post a notification titled '\(word)', use notification-bridge "
                    + "send '\(word)'"
            }
            return status(for: error, hint: hint)
        }
    }

    /// The exit status of a command that ended with `error`, after saying why on standard error.
    ///
    /// - Parameter hint: said after a usage error's first line, in parentheses.
    static func status(for error: any Error, hint: String? = nil) -> Int32 {
        do {
            throw error
        } catch let failure as CLIFailure {
            if !failure.message.isEmpty { printError(failure.message) }
            return failure.status
        } catch let code as ExitCode {
            return code.rawValue
        } catch {
            let code = NotificationBridgeCommand.exitCode(for: error)
            var message = NotificationBridgeCommand.fullMessage(for: error)
            // One prefix for every message: the program's name, as the CLI's own failures have.
            if message.hasPrefix("Error: ") { message = "notification-bridge: " + message.dropFirst("Error: ".count) }
            if let hint, code == .validationFailure {
                let firstLine = message.prefix { $0 != "\n" }
                message = firstLine + " (\(hint))" + message.dropFirst(firstLine.count)
            }
            if code == .success {
                if !message.isEmpty { print(message) }
                return ExitStatus.success
            }
            if !message.isEmpty { printError(message) }
            return code == .validationFailure ? ExitStatus.usage : ExitStatus.failure
        }
    }
}

/// Runs a command's work to its end on the main thread, then exits with its status.
///
/// - Parameters:
///   - signals: signals the loop takes instead of their default action, handed to `onSignal` on the main thread.
///
/// The main thread becomes the process's only executor: no thread pool is started (libdispatch's costs a thread or
/// two and their hand-overs on every run), and the command's tasks take turns on it while the bus connection's own
/// thread does the waiting. An `async` `main` would instead start on the main actor and hop to the pool.
func runToEnd(
    signals: [Int32] = [], onSignal: @escaping @Sendable (Int32) -> Void = { _ in },
    _ work: @escaping () async throws -> Void
) -> Never {
    // Handed to the task, which alone runs it.
    nonisolated(unsafe) let work = work
    EventLoopExecutor.runMain(signals: signals, onSignal: onSignal) {
        do {
            try await work()
            return ExitStatus.success
        } catch {
            return Main.status(for: error)
        }
    }
}

/// Writes a line to standard error (unbuffered, so that it comes out before the process exits).
func printError(_ text: String) {
    var line = text.hasSuffix("\n") ? text : text + "\n"
    line.withUTF8 { bytes in
        var rest = UnsafeRawBufferPointer(bytes)
        while !rest.isEmpty {
            let written = write(2, rest.baseAddress, rest.count)
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            rest = UnsafeRawBufferPointer(rebasing: rest[written...])
        }
    }
}
