#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Logging
import NotificationBridgeDaemon

// The thin command: logs go to standard error (the journal, under systemd); everything else is in the library.
LoggingSystem.bootstrap(StreamLogHandler.standardError)

func fail(_ message: String, status: Int32) -> Never {
    let line = Array("notification-bridged: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    exit(status)
}

let command: DaemonCommand
do {
    command = try buildDaemon(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    fail("\(error)", status: 2)
}

switch command {
case .print(let text):
    print(text)
case .serve(_, let group):
    do {
        try await group.run()
    } catch {
        fail("\(error)", status: 1)
    }
}
