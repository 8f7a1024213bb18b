import ArgumentParser

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Runs the command tree and turns every outcome into one of the documented exit statuses (``ExitStatus``): usage
/// errors exit 2 (not ArgumentParser's 64), failures print one line on standard error, never a stack trace.
@main
enum Main {
    static func main() async {
        exit(await run(Array(CommandLine.arguments.dropFirst())))
    }

    static func run(_ arguments: [String]) async -> Int32 {
        if arguments.first == ExecFilter.flag { return ExecFilter.run(arguments) }
        do {
            var command = try NotificationBridgeCommand.parseSelectedSubcommand(NotifySendHints.rewrite(arguments))
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
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
