import DBusCore
import NotificationBridgeAPI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The program started as `notify-send`: notify-send's command line and behaviour, through notification-bridged.
///
/// What a script sees is notify-send's: the same standard output (`-p` prints a decimal id, `-A` the chosen action's
/// name or index), the same messages for the same mistakes, exit status 0 after a wait however it ended (a choice, a
/// close, Ctrl-C, `-t` passing), non-zero for a mistake or a failure. The id `-p` prints is the bridge's, in decimal
/// (the daemon's `fixed-id`): `-r` with it, or with any number a script picked, replaces that notification in place
/// while it shows and posts a new one under that number otherwise.
enum NotifySend {
    /// The name the program answers to as notify-send.
    static let programName = "notify-send"
    /// The notify-send release whose command line this follows.
    static let compatibleVersion = "0.8.1"

    /// Reads notify-send's command line `arguments` (without the program's name); `invokedAs` is how the program was
    /// started (`argv[0]`), which help and `--version` name.
    static func parse(_ arguments: [String], invokedAs: String) -> Invocation {
        let options: NotifySendArguments
        do {
            options = try NotifySendArguments(parsing: arguments)
        } catch {
            return .finished(CommandOutcome(standardError: error.message, status: ExitStatus.usage))
        }
        if options.showHelp {
            return .finished(
                CommandOutcome(
                    standardOutput: NotifySendArguments.help(programName: invokedAs), status: ExitStatus.success))
        }
        if options.showVersion {
            return .finished(
                CommandOutcome(
                    standardOutput: "\(invokedAs) \(compatibleVersion) "
                        + "(notification-bridge \(NotificationBridgeCommand.configuration.version))\n",
                    status: ExitStatus.success))
        }
        do {
            return .notifySend(try NotifySendRequest(options), options)
        } catch {
            return .finished(CommandOutcome(standardError: error.message, status: ExitStatus.usage))
        }
    }

    /// Posts `request`, waits when asked, and exits.
    static func run(_ request: NotifySendRequest, options: NotifySendArguments) -> Never {
        let cancellation = WaitCancellation()
        runToEnd(signals: request.waits ? [SIGINT] : [], onSignal: { _ in cancellation.interrupted() }) {
            try await post(request, options: options, cancellation: cancellation)
        }
    }

    /// Posts, prints the id, and waits when asked; returns only when it ends normally.
    private static func post(_ request: NotifySendRequest, options: NotifySendArguments, cancellation: WaitCancellation)
        async throws
    {
        let client = try await BridgeClient.connect()
        var entries = request.entries
        var failed = false
        var waits = request.waits
        if !request.actions.isEmpty {
            let information = try await client.call { try await $0.serverInformation() }
            let capabilities = WireEntries(information)?[ServerInformationKeys.serverCapabilities] ?? []
            if !capabilities.contains(where: { $0.lowercased() == "actions" }) {
                printError("Actions are not supported by this notifications server. Displaying non-interactively.")
                entries.removeActions()
                failed = true
                waits = options.wait
            }
        }
        if waits {
            // Armed before posting: the id is chosen here, and a Ctrl-C while Post is on its way must close it too.
            cancellation.arm(
                client: client, id: request.bridgeID, message: "Wait cancelled, closing notification",
                status: failed ? ExitStatus.failure : ExitStatus.success)
        }
        _ = try await client.call { try await $0.post(entries) }
        if options.printID {
            print(request.printedID)
            fflush(nil)
        }
        if let fd = options.idFD { writeLine(String(request.printedID), to: fd) }
        if waits {
            do {
                let response = try await Response.wait(for: request.bridgeID, client: client)
                if let name = request.actionNames[response.action] {
                    print(name)
                    fflush(nil)
                    if let fd = options.selectedActionFD { writeLine(name, to: fd) }
                    if let fd = options.activationTokenFD,
                        let token = WireEntries(response.dictionary)?[ResponseKeys.activationToken]
                    {
                        writeLine(token, to: fd)
                    }
                }
            } catch let failure as CLIFailure where failure.status == ExitStatus.closed {
                // Closed without a choice: notify-send prints nothing and succeeds.
            }
        }
        if failed { throw CLIFailure("", status: ExitStatus.failure) }
    }

    /// Writes `line` and a newline to descriptor `fd`, then closes it, as the `--…-fd` options ask.
    private static func writeLine(_ line: String, to fd: Int32) {
        var text = line + "\n"
        text.withUTF8 { bytes in
            var rest = UnsafeRawBufferPointer(bytes)
            while !rest.isEmpty {
                let written = write(fd, rest.baseAddress, rest.count)
                if written < 0 {
                    if errno == EINTR { continue }
                    printError(
                        "\(programName): cannot write to file descriptor \(fd): \(String(cString: strerror(errno)))")
                    return
                }
                rest = UnsafeRawBufferPointer(rebasing: rest[written...])
            }
        }
        close(fd)
    }
}
