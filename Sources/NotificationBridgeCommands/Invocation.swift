import ArgumentParser

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What a command line asks for: the one reading of `notification-bridge`'s (and `notify-send`'s) arguments.
///
/// Every form is decided here, before anything runs: notify-send's command line when the program is started as
/// `notify-send`, the `--exec-filter` form the daemon runs, a plain `send TITLE [BODY]` (read without ArgumentParser,
/// as the tree would read it), and the command tree. Help, `--version` and usage mistakes come out as
/// ``finished(_:)``, with the text and status the program prints and exits with, so that tests read them without
/// starting the program.
enum Invocation {
    /// `--exec-filter ACTIONS -- CMD ARGS…`: run CMD when the response's action is one of ACTIONS.
    case execFilter([String])
    /// `[send] TITLE [BODY]` with nothing else: posted with one call, without the command tree.
    case plainSend(PlainSend)
    /// notify-send's command line, read as notify-send reads it.
    case notifySend(NotifySendNotification, NotifySendArguments)
    /// A command of the tree, parsed and validated; `hint` is added to a usage error its run may still throw.
    case command(any ParsableCommand, hint: String?)
    /// Nothing to run: print this and exit.
    case finished(CommandOutcome)

    /// Reads `arguments` (without the program's name); `invokedAs` is how the program was started (`argv[0]`).
    static func parse(_ arguments: [String], invokedAs: String) -> Invocation {
        if invokedAs.split(separator: "/").last == Substring(NotifySend.programName) {
            return NotifySend.parse(arguments, invokedAs: invokedAs)
        }
        if arguments.first == ExecFilter.flag { return .execFilter(arguments) }
        if let plain = PlainSend(arguments) { return .plainSend(plain) }
        let hint = Self.hint(arguments)
        do {
            let rewritten = NotifySendHints.rewrite(ShortFlags.rewrite(arguments))
            if let send = TitleAfterTerminator.send(rewritten) {
                try send.validate()
                return .command(send, hint: hint)
            }
            return .command(try NotificationBridgeCommand.parseSelectedSubcommand(rewritten), hint: hint)
        } catch {
            return .finished(CommandOutcome(error, hint: hint))
        }
    }

    /// `notification-bridge wait` alone may have meant a notification titled "wait", as with notify-send: what a usage
    /// error of a lone subcommand name adds.
    private static func hint(_ arguments: [String]) -> String? {
        guard arguments.count == 1, let word = arguments.first, word != SendCommand.configuration.commandName,
            NotificationBridgeCommand.subcommandNamed(word) != nil
        else { return nil }
        return "'\(word)' is a command; to post a notification titled '\(word)', use notification-bridge send '\(word)'"
    }

    /// Runs what the command line asks for in this process, as a test does: writes through ``Terminal/current``, talks
    /// on ``BridgeClient/bus``, and returns the exit status. `nil` for the forms that only the program runs:
    /// notify-send's command line and the exec filter, whose runs end the process.
    func execute() async -> Int32? {
        switch self {
        case .execFilter, .notifySend:
            return nil
        case .command(let command, let hint):
            return await Self.status(of: command, hint: hint)
        case .plainSend, .finished:
            return runWithoutWaiting()
        }
    }

    /// Runs what the command line asks for and returns the exit status; a command runs to its end on the main thread
    /// and exits the process itself.
    func run() -> Int32 {
        switch self {
        case .execFilter(let arguments):
            return ExecFilter.run(arguments)
        case .notifySend(let notification, let options):
            NotifySend.run(notification, options: options)
        case .command(let command, let hint):
            // Handed to the task, which alone uses it from then on.
            nonisolated(unsafe) let command = command
            // Ctrl-C while a command waits for a response closes the notification (WaitCancellation).
            runToEnd(signals: [SIGINT], onSignal: { _ in WaitCancellation.shared.interrupted() }) {
                let status = await Self.status(of: command, hint: hint)
                // Said already: the exit code alone ends the program.
                if status != ExitStatus.success { throw ExitCode(status) }
            }
        case .plainSend, .finished:
            return runWithoutWaiting() ?? ExitStatus.failure
        }
    }

    /// The forms that end without waiting, run alike by the program and in-process: a plain send (one blocking call,
    /// bounded by the proxy's timeout, as the program makes it on its main thread) and a command line that ended in
    /// its reading; `nil` for the others.
    private func runWithoutWaiting() -> Int32? {
        switch self {
        case .plainSend(let plain):
            do {
                try plain.post()
                return ExitStatus.success
            } catch {
                return CommandOutcome(error).emit()
            }
        case .finished(let outcome):
            return outcome.emit()
        case .execFilter, .notifySend, .command:
            return nil
        }
    }

    /// Runs a command of the tree to its end and returns its exit status, its failure said on standard error: the one
    /// way a command runs, in the program and in-process.
    private static func status(of command: any ParsableCommand, hint: String?) async -> Int32 {
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                // ArgumentParser's own `help` command.
                var command = command
                try command.run()
            }
            return ExitStatus.success
        } catch {
            return CommandOutcome(error, hint: hint).emit()
        }
    }
}
