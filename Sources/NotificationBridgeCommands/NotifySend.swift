import DBusCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The program started as `notify-send`: libnotify's notify-send, talking to the notification server (or, inside a
/// sandbox, the desktop portal) itself, as libnotify does; the bridge's daemon has no part in it.
///
/// What goes on the wire is libnotify's: one `Notify` from this process, with its process id as `sender-pid`; the id
/// `-p` and `--id-fd` print is the server's, so `-r`, `CloseNotification` and the server's signals all name it. What a
/// script sees is libnotify's too: the same standard output, the same messages, status 1 for every mistake and
/// failure, 0 after a wait however it ended (a choice, a close, Ctrl-C, `-t` passing).
enum NotifySend {
    /// The name the program answers to as notify-send.
    static let programName = "notify-send"
    /// The libnotify release whose notify-send this follows.
    static let compatibleVersion = "0.8.8"

    /// Reads notify-send's command line `arguments` (without the program's name); `invokedAs` is how the program was
    /// started (`argv[0]`), which help and `--version` name.
    static func parse(_ arguments: [String], invokedAs: String) -> Invocation {
        let options: NotifySendArguments
        do {
            options = try NotifySendArguments(parsing: arguments)
        } catch {
            return .finished(CommandOutcome(standardError: error.message, status: ExitStatus.failure))
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
            return .notifySend(try NotifySendNotification(options), options)
        } catch {
            return .finished(CommandOutcome(standardError: error.message, status: ExitStatus.failure))
        }
    }

    /// Shows `notification`, prints its id when asked, waits when asked, and exits.
    static func run(_ notification: NotifySendNotification, options: NotifySendArguments) -> Never {
        let interruption = NotifySendInterruption()
        let mayWait = options.wait || !notification.actions.isEmpty
        runToEnd(signals: mayWait ? [SIGINT] : [], onSignal: { _ in interruption.interrupted() }) {
            try await show(notification, options: options, interruption: interruption)
        }
    }

    /// Shows, prints the id, and waits when asked; returns when it ends with success.
    private static func show(
        _ notification: NotifySendNotification, options: NotifySendArguments, interruption: NotifySendInterruption
    ) async throws {
        var notification = notification
        let server: any NotifySendServer
        var failed = false
        let connection: DBusConnection
        do {
            connection = try await DBusConnection.connect(to: .session)
        } catch {
            let reason = (error as? DBusFailure)?.message ?? "\(error)"
            throw failure(
                "cannot connect to the session bus (\(reason)); run notify-send inside a desktop session, or set "
                    + "DBUS_SESSION_BUS_ADDRESS")
        }
        do {
            server = try await Self.server(on: connection)
            if !notification.actions.isEmpty, !(try await server.supportsActions()) {
                printError("Actions are not supported by this notifications server. Displaying non-interactively.")
                notification.actions = NotifySendActions()
                failed = true
            }
        } catch let error as NotifySendShowFailure {
            throw failure(error.message)
        }
        let waits = options.wait || !notification.actions.isEmpty
        let signals = waits ? try await server.signals() : nil
        let shown: NotifySendShown
        if waits { interruption.sending() }
        do {
            shown = try await server.show(notification)
        } catch let error as NotifySendShowFailure {
            throw failure(error.message)
        }
        if options.printID {
            print(String(shown.printedID))
            fflush(nil)
        }
        if let fd = options.idFD { writeText("\(shown.printedID)\n", to: fd) }
        if let signals {
            await wait(
                for: shown, on: server, signals: signals, notification: notification, options: options,
                interruption: interruption)
        }
        if failed { throw CLIFailure("", status: ExitStatus.failure) }
    }

    /// The portal when libnotify would use it and it is there, else the notification server.
    private static func server(on connection: DBusConnection) async throws -> any NotifySendServer {
        let sandbox = NotifySendSandbox.current()
        if sandbox.usesPortal, let portal = await NotifySendPortal.connect(connection, appID: sandbox.portalAppID) {
            return portal
        }
        return try await NotifySendFreedesktop.connect(connection, defaultDesktopEntry: sandbox.snapDesktopEntry)
    }

    /// Waits until the server's signals, Ctrl-C or `-t` end the wait, doing what ``NotifySendWait`` says.
    private static func wait(
        for shown: NotifySendShown, on server: any NotifySendServer, signals: AsyncStream<NotifySendServerSignal>,
        notification: NotifySendNotification, options: NotifySendArguments, interruption: NotifySendInterruption
    ) async {
        let (events, continuation) = AsyncStream.makeStream(of: NotifySendWait.Event.self)
        // One task carries the server's signals over, in the order they came.
        let forwarding = Task {
            for await signal in signals where signal.notification == shown.key {
                for event in signal.events { continuation.yield(event) }
            }
        }
        defer { forwarding.cancel() }
        if options.expireTime > 0 {
            let milliseconds = Int(options.expireTime)
            Task {
                try? await Task.sleep(for: .milliseconds(milliseconds))
                continuation.yield(.timedOut)
            }
        }
        interruption.startWaiting(continuation)
        var wait = NotifySendWait(actions: notification.actions, clickKey: server.clickKey)
        for await event in events {
            for effect in wait.handle(event) {
                switch effect {
                case .report(let action, let token):
                    print(action)
                    fflush(nil)
                    if let fd = options.selectedActionFD { writeText(action + "\n", to: fd) }
                    if let fd = options.activationTokenFD { writeText((token ?? "") + "\n", to: fd) }
                case .say(let message):
                    printError(message)
                case .close:
                    await server.close(shown)
                case .finish:
                    return
                }
            }
        }
    }

    /// libnotify's words for a notification that could not be shown.
    private static func failure(_ reason: String) -> CLIFailure {
        CLIFailure("Failed to show notification: \(reason)", status: ExitStatus.failure)
    }

    /// Writes `text` to descriptor `fd`, left open as libnotify leaves it.
    private static func writeText(_ text: String, to fd: Int32) {
        var text = text
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
        fsync(fd)
    }
}
