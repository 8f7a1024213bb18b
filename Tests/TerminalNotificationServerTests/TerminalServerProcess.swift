import DBusCore
import DBusTestSupport
import Foundation
import NotificationServerKit
import Testing

/// The built programs of this package, next to the test bundle (building the tests builds every product).
enum BuiltProgram {
    static func path(_ name: String) throws -> String {
        let folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let path = folder.appendingPathComponent(name).path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw TestSupportError("\(name) is not built in \(folder.path); run 'swift build --build-tests' first")
        }
        return path
    }

    /// How the terminal server is started.
    enum TerminalServerForm: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// As the package installs it: a link named `notification-terminal-server` to the daemon's program.
        case installed = "the daemon's program, started under the terminal server's name"
        /// Its own program, as `swift run` and the demo start it.
        case ownProgram = "its own program"

        var testDescription: String { rawValue }

        /// The path to start.
        func path() throws -> String {
            switch self {
            case .ownProgram: return try BuiltProgram.path("notification-terminal-server")
            case .installed: return try BuiltProgram.installedLink()
            }
        }
    }

    /// A link named `notification-terminal-server` to the built daemon, in a folder of its own, as the package
    /// installs it.
    private static func installedLink() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nb-installed-\(getpid())")
        let link = folder.appendingPathComponent("notification-terminal-server").path
        if FileManager.default.fileExists(atPath: link) { return link }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        do {
            try FileManager.default.createSymbolicLink(
                atPath: link, withDestinationPath: try path("notification-bridged"))
        } catch  where FileManager.default.fileExists(atPath: link) {
            // Made meanwhile by another test.
        }
        return link
    }
}

/// A running `notification-terminal-server` on a private bus: its input is a pipe the test writes commands to, its
/// output a pipe the test reads, line by line, with a bound on every wait.
final class TerminalServerProcess: @unchecked Sendable {
    let child: ChildProcess
    private let output: LineReader
    // Only the test that owns the process writes and closes.
    private var input: Int32?
    /// Everything read so far, for failure messages.
    private(set) var transcript: [String] = []

    private init(child: ChildProcess, input: Int32, output: LineReader) {
        self.child = child
        self.input = input
        self.output = output
    }

    deinit {
        closeInput()
        child.stop(grace: .seconds(2))
    }

    /// Starts the server with `arguments` and returns once it owns `org.freedesktop.Notifications`.
    static func start(
        on bus: PrivateBus, watcher: DBusConnection, arguments: [String] = [],
        environment extra: [String: String] = [:], form: BuiltProgram.TerminalServerForm = .installed
    ) async throws -> TerminalServerProcess {
        let owners = try await watcher.nameOwnerChanges(of: NotificationServer.busName)
        let previous = try await watcher.nameOwner(of: NotificationServer.busName)
        var inputEnds: [Int32] = [0, 0]
        guard pipe(&inputEnds) == 0 else { throw TestSupportError("pipe failed: errno \(errno)") }
        _ = fcntl(inputEnds[1], F_SETFD, FD_CLOEXEC)
        let (reader, writeEnd) = try LineReader.pipe()
        let child: ChildProcess
        do {
            defer {
                close(inputEnds[0])
                close(writeEnd)
            }
            child = try ChildProcess.spawn(
                [try form.path(), "--address", bus.address] + arguments,
                environment: bus.environment.merging(extra) { $1 }, standardInput: inputEnds[0],
                standardOutput: writeEnd)
        }
        let process = TerminalServerProcess(child: child, input: inputEnds[1], output: reader)
        try await withTimeout(waitingFor: "notification-terminal-server to own org.freedesktop.Notifications") {
            for await owner in owners where owner != nil && owner != previous { return }
        }
        return process
    }

    /// Types `line` as the user would.
    func send(_ line: String) {
        guard let input else { return }
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
    }

    /// Ends the input, as Ctrl-D does.
    func closeInput() {
        if let input { close(input) }
        input = nil
    }

    /// The next line of output.
    func nextLine(within limit: Duration = .seconds(10), waitingFor what: String) throws -> String {
        let line = try output.nextLine(within: limit, waitingFor: what)
        transcript.append(line)
        return line
    }

    /// Reads lines until one contains `text`; returns it.
    @discardableResult
    func line(containing text: String, within limit: Duration = .seconds(10)) throws -> String {
        let deadline = ContinuousClock.now + limit
        while true {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else {
                throw TestSupportError("no line containing '\(text)' within \(limit); output: \(transcript)")
            }
            let line = try nextLine(
                within: remaining, waitingFor: "a line containing '\(text)' (so far: \(transcript))")
            if line.contains(text) { return line }
        }
    }

    /// Reads the next notification drawn, from its `┌─ #ID` line to its `└─` line.
    func nextCard() throws -> (id: UInt32, lines: [String]) {
        let header = try line(containing: "┌─ #")
        guard let id = UInt32(header.split(separator: "#")[1].prefix(while: \.isNumber)) else {
            throw TestSupportError("a card header without an id: \(header)")
        }
        var lines = [header]
        while lines.last?.hasPrefix("└─") != true {
            lines.append(try nextLine(waitingFor: "the end of the notification drawn (so far: \(lines))"))
        }
        return (id, lines)
    }
}

/// A private bus with the terminal server on it, and a client connection that posts and hears the server's signals.
struct TerminalServerFixture: Sendable {
    let bus: PrivateBus
    let server: TerminalServerProcess
    let client: DBusConnection
    /// The server's signals to the client.
    let signals: AsyncStream<DBusSignal>

    static func with<T: Sendable>(
        arguments: [String] = ["--color", "never"], form: BuiltProgram.TerminalServerForm = .installed,
        _ body: (TerminalServerFixture) async throws -> T
    ) async throws -> T {
        try await withPrivateBus { bus in
            let client = try await bus.connect()
            let server = try await TerminalServerProcess.start(
                on: bus, watcher: client, arguments: arguments, form: form)
            let owner = try await client.nameOwner(of: NotificationServer.busName)
            let signals = try await client.signals(
                matching: DBusMatchRule(sender: owner, path: NotificationServer.objectPath))
            let fixture = TerminalServerFixture(bus: bus, server: server, client: client, signals: signals)
            do {
                let result = try await body(fixture)
                await client.close()
                return result
            } catch {
                await client.close()
                throw error
            }
        }
    }

    /// Posts with `Notify` from the client; returns the id.
    func notify(
        app: String = "Mail", summary: String, body: String = "", actions: [String] = [],
        hints: [String: DBusValue] = [:]
    ) async throws -> UInt32 {
        try await client.call(
            destination: NotificationServer.busName, path: NotificationServer.objectPath,
            interface: NotificationServer.interfaceName, method: "Notify",
            arguments: [
                .string(app), .uint32(0), .string(""), .string(summary), .string(body), .strings(actions),
                .vardict(hints), .int32(-1),
            ], timeout: .seconds(10)
        ).decode(UInt32.self)
    }

    /// The next `count` signals the client receives from the server, as `Member(arguments)` text.
    func nextSignals(_ count: Int, waitingFor what: String) async throws -> [String] {
        let signals = self.signals
        return try await withTimeout(waitingFor: what) {
            var received: [String] = []
            for await signal in signals {
                received.append("\(signal.member)\(DBusValue.structure(signal.arguments))")
                if received.count == count { return received }
            }
            throw TestSupportError("the connection closed; received \(received)")
        }
    }
}
