import ArgumentParser
import Dispatch

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
        exit(run(Array(CommandLine.arguments.dropFirst())))
    }

    static func run(_ arguments: [String]) -> Int32 {
        if arguments.first == ExecFilter.flag { return ExecFilter.run(arguments) }
        do {
            var command = try NotificationBridgeCommand.parseSelectedSubcommand(NotifySendHints.rewrite(arguments))
            if let asyncCommand = command as? any AsyncParsableCommand {
                try runToEnd(asyncCommand)
            } else {
                try command.run()
            }
            return ExitStatus.success
        } catch let failure as CLIFailure {
            if !failure.message.isEmpty { printError(failure.message) }
            return failure.status
        } catch let code as ExitCode {
            return code.rawValue
        } catch {
            let code = NotificationBridgeCommand.exitCode(for: error)
            let message = NotificationBridgeCommand.fullMessage(for: error)
            if code == .success {
                if !message.isEmpty { print(message) }
                return ExitStatus.success
            }
            if !message.isEmpty { printError(message) }
            return code == .validationFailure ? ExitStatus.usage : ExitStatus.failure
        }
    }
}

/// Runs an async command on Swift's thread pool and blocks the main thread until it ends.
///
/// An `async` `main` would start on the main actor, which a thread of its own serves, and hop from there to the pool
/// for the command: one thread and two hand-overs more on every run, about a millisecond of each `send`. Nothing in
/// the commands runs on the main actor.
private func runToEnd(_ command: any AsyncParsableCommand) throws {
    let done = DispatchSemaphore(value: 0)
    // Handed to the task and read back only after `done` is signalled, so never touched by two threads at once.
    nonisolated(unsafe) var command = command
    nonisolated(unsafe) var outcome: Result<Void, any Error> = .success(())
    Task {
        do {
            try await command.run()
        } catch {
            outcome = .failure(error)
        }
        done.signal()
    }
    done.wait()
    try outcome.get()
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
