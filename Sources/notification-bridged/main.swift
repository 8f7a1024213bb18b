internal import CLinux
import Dispatch
import EventLoopExecutor
import Logging
import NotificationBridgeDaemon
import TerminalNotificationServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

// One program for two: started as notification-terminal-server (the package installs that name as a link to this
// program), it is the terminal notification server, on Swift's default executors as that program has them. Two
// static programs would each carry the Swift runtime and FoundationEssentials: 14 MB more in the package.
if CommandLine.arguments.first?.split(separator: "/").last == "notification-terminal-server" {
    Task { await TerminalServerCommand.runProgram() }
    dispatchMain()
}

// The thin command: logs go to standard error (the journal, under systemd); everything else is in the library.
LoggingSystem.bootstrap(StreamLogHandler.standardError)

/// Writes `text` and a newline on standard error and exits with `status`.
func fail(_ text: String, status: Int32) -> Never {
    let line = Array((text.hasSuffix("\n") ? text : text + "\n").utf8)
    line.withUnsafeBytes { bytes in
        var rest = bytes
        while !rest.isEmpty {
            let written = write(STDERR_FILENO, rest.baseAddress, rest.count)
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            rest = UnsafeRawBufferPointer(rebasing: rest[written...])
        }
    }
    exit(status)
}

// Every block of 128 KiB or more is a mapping of its own, given back to the system when freed. glibc starts there,
// then raises the threshold past each large block freed (up to 32 MiB) so that the next of that size comes from the
// heap: the megabytes of a listing of thousands would then stay in the heap after each reply, among small blocks
// that keep their pages resident (3.6 MB more after the second listing of 10,000, 7.2 MB after the fourth).
_ = mallopt(M_MMAP_THRESHOLD, 128 * 1024)

let command: DaemonCommand
do {
    // Once it serves, each time it has had nothing to do for a second after some work (start-up's first), the
    // daemon lets go of the code pages of its program and its libraries: the kernel maps back in what the next call
    // runs, and the rest, most of what start-up mapped in, stays out.
    command = try buildDaemon(arguments: Array(CommandLine.arguments.dropFirst())) {
        EventLoopExecutor.whenQuiet(for: .seconds(1)) { _ = CodePages.release() }
    }
} catch {
    // The argument parser's message: what was wrong, the usage line, where to read more.
    fail(error.description, status: 2)
}

switch command {
case .print(let text):
    print(text)
case .serve(_, let group):
    // Every task runs on one thread that sleeps in epoll: no wake-ups while idle. SIGTERM (systemd, `--replace`) and
    // SIGINT end the group gracefully; a second one while it ends does nothing more.
    EventLoopExecutor.runMain(
        signals: [SIGTERM, SIGINT],
        onSignal: { _ in Task { await group.triggerGracefulShutdown() } }
    ) {
        do {
            try await group.run()
            return 0
        } catch {
            fail("notification-bridged: \(error)", status: 1)
        }
    }
}
