import DBusCore
import FoundationEssentials
import Logging
import NotificationBridge
import NotificationBridgeAPI
import ProcessSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Starts the `exec` command of a notification with a response: `posix_spawn`, never a shell, so no text of the
/// response or of the argv is ever interpreted.
///
/// The command gets the daemon's environment without any inherited response variables, plus `NOTIFICATION_ID`,
/// `NOTIFICATION_ACTION`, `NOTIFICATION_USER_INFO` (JSON), `NOTIFICATION_TEXT` (only when text was typed) and, for a
/// foreground action with a token, `XDG_ACTIVATION_TOKEN` and `DESKTOP_STARTUP_ID`. Typed text is also written to its
/// standard input, byte for byte, which is then closed; without text, standard input is `/dev/null`. Text over
/// ``BridgeResponse/maximumTextVariableBytes`` is cut in `NOTIFICATION_TEXT`, and `NOTIFICATION_TEXT_TRUNCATED` is
/// `1`. What it writes to standard output and standard error goes to the daemon's standard error (the journal, under
/// systemd), each line prefixed with `notification ID: ` (see ``OutputRelay``). It runs in a process group of its own
/// with default signal handling and an empty signal mask, and is reaped by a thread that waits for it, so no zombie
/// is left.
enum CommandLauncher {
    /// Variables the daemon sets or clears for every command, whatever its own environment holds.
    static let responseVariables = [
        "NOTIFICATION_ID", "NOTIFICATION_ACTION", "NOTIFICATION_USER_INFO", "NOTIFICATION_TEXT",
        "NOTIFICATION_TEXT_TRUNCATED", "XDG_ACTIVATION_TOKEN", "DESKTOP_STARTUP_ID",
    ]
    /// Checks an `exec` argv when the notification is posted, so that a mistake shows then, not when the user acts:
    /// the one rule of ``ExecRule``, with the program looked up on the daemon's `PATH`.
    static func check(_ argv: [String]) throws(DBusFailure) { try ExecRule.check(argv) }

    /// The file to execute: `program` itself when it is a path, else the first match on `PATH`.
    static func resolve(_ program: String) -> String? { ExecRule.resolve(program) }

    /// Why a command could not start.
    struct LaunchError: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts `argv` with `variables` added to the environment and `input` on its standard input; its output goes to
    /// the daemon's standard error, each line prefixed with `notification <notificationID>: `.
    ///
    /// Returns once the command has started; writing the input and reaping happen on a thread of their own, and so
    /// does relaying its output.
    ///
    /// - Throws: ``LaunchError`` when the program is gone or cannot be executed.
    static func launch(
        _ argv: [String], notificationID: String, variables: [String: String], input: [UInt8]?, logger: Logger
    ) throws(LaunchError) {
        guard let program = argv.first, let executable = resolve(program) else {
            throw LaunchError(description: "\(argv.first ?? "") is no longer an executable file")
        }
        var ends: [Int32] = [-1, -1]
        if input != nil { try makePipe(&ends) }
        var output: [Int32] = [-1, -1]
        do {
            try makePipe(&output)
        } catch {
            if input != nil { for end in ends { close(end) } }
            throw error
        }
        let result = ChildSpawner.spawn(
            executable: executable, arguments: argv, environment: environment(adding: variables),
            standardInput: input == nil ? nil : ends[0], standardOutput: output[1], standardError: output[1])
        if input != nil { close(ends[0]) }
        // The child holds its own copy: the relay sees the end of the output once the command (and whatever it
        // started that kept the descriptor) has exited.
        close(output[1])
        let child: pid_t
        switch result {
        case .success(let pid):
            child = pid
        case .failure(let error):
            if input != nil { close(ends[1]) }
            close(output[0])
            throw LaunchError(description: "\(executable): \(error)")
        }
        let relay = OutputRelay(descriptor: output[0], prefix: "notification \(notificationID): ")
        DesktopWorkerThread.detach(name: "command output") { relay.run() }
        let writeEnd = ends[1]
        DesktopWorkerThread.detach(name: "command") {
            if let input { writeAll(input, to: writeEnd) }
            let status = ChildReaper.exitStatus(waitingFor: child)
            logger.debug("command finished", metadata: ["command.pid": "\(child)", "command.status": "\(status)"])
        }
    }

    /// Makes a pipe whose ends are closed on `exec` (see ``ClosedOnExecPipe``), so that no other child inherits them.
    private static func makePipe(_ ends: inout [Int32]) throws(LaunchError) {
        do {
            let pipe = try ClosedOnExecPipe.make()
            ends = [pipe.read, pipe.write]
        } catch {
            throw LaunchError(description: "pipe: \(error)")
        }
    }

    /// This process's environment without ``responseVariables``, plus `variables`, as `NAME=value` lines.
    static func environment(adding variables: [String: String]) -> [String] {
        var lines: [String] = []
        var entry = environ
        while let line = entry.pointee {
            let text = String(cString: line)
            let name = text.split(separator: "=", maxSplits: 1).first.map(String.init) ?? text
            if !responseVariables.contains(name) { lines.append(text) }
            entry += 1
        }
        for (name, value) in variables.sorted(by: { $0.key < $1.key }) { lines.append(name + "=" + value) }
        return lines
    }

    /// Writes all of `bytes` and closes the descriptor. A command that exits without reading makes the write fail
    /// with `EPIPE`: SIGPIPE is blocked on this thread, so it cannot end the daemon, and is taken off again here.
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                break
            }
            offset += written
        }
        close(descriptor)
        var none = timespec(tv_sec: 0, tv_nsec: 0)
        _ = sigtimedwait(&pipeSignal, nil, &none)
    }

}
