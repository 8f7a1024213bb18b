import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridge
import NotificationBridgeAPI
import ProcessSupport
import TerminalNotificationServer

/// Why the demo failed; the message says what did not happen.
struct DemoFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// `make demo`: a private session bus, `notification-terminal-server` owning `org.freedesktop.Notifications` on it,
/// the real `notification-bridged`, and this program as a mail app that registers a category, posts messages and
/// prints every response the daemon hands back.
///
/// Interactive, the user's lines go to the terminal server, which draws the notifications; with `auto`, a script
/// reads the drawn notifications and types for the user, and every expected response must arrive in time.
final class Demo {
    /// What happens while the demo runs, in one ordered stream.
    private enum Event: Sendable {
        case serverLine(String)
        case serverEnded
        case userLine(String)
        case userEnded
        case report(BridgeEvent)
        case scripted(String)
        case failed(String)
        case deadline
    }

    /// How long the scripted session may take, from the first post to the last response.
    static let autoDeadline: Duration = .seconds(40)
    /// How long each program may take to come up.
    static let startLimit: Duration = .seconds(15)

    private let auto: Bool
    private let style: TerminalStyle
    private let processes: DemoProcesses
    private let output = TerminalOutput()

    init(auto: Bool, style: TerminalStyle, processes: DemoProcesses) {
        self.auto = auto
        self.style = style
        self.processes = processes
    }

    /// The demo's own lines, told apart from the terminal server's.
    private func say(_ text: String) {
        output.line(style.bold(style.cyan("◆")) + " " + text)
    }

    /// Runs the demo to its end; everything started is stopped before it returns or throws.
    func run() async throws {
        do {
            try await session()
        } catch {
            processes.stopAll()
            throw error
        }
        let statuses = processes.stopAll()
        guard !processes.wasInterrupted else { return }
        say(
            "Stopped "
                + statuses.map { "\($0.name) (exit status \($0.status.map(String.init) ?? "unknown"))" }
                .joined(separator: ", ") + " and the private bus.")
    }

    private func session() async throws {
        let folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let serverPath = folder.appendingPathComponent("notification-terminal-server").path
        let daemonPath = folder.appendingPathComponent("notification-bridged").path
        for path in [serverPath, daemonPath] where !FileManager.default.isExecutableFile(atPath: path) {
            throw DemoFailure("\(path) is not built; run 'make demo', which builds it")
        }

        let bus = try processes.startBus()
        say("A private session bus is up: \(bus.address)")
        let client = try await bus.connect()
        defer { Task { await client.close() } }
        let (events, feed) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .unbounded)

        // The terminal server, its input and output through pipes: the demo relays both.
        let toServer = try DemoPipe.make()
        let fromServer = try DemoPipe.make()
        let serverOwners = try await client.nameOwnerChanges(of: "org.freedesktop.Notifications")
        _ = try processes.start(
            "notification-terminal-server",
            [serverPath, "--address", bus.address, "--color", style.usesColor ? "always" : "never"],
            environment: bus.environment, standardInput: toServer.readEnd, standardOutput: fromServer.writeEnd)
        close(toServer.readEnd)
        close(fromServer.writeEnd)
        let serverInput = TerminalOutput(descriptor: toServer.writeEnd)
        var serverInputOpen = true
        defer { if serverInputOpen { close(toServer.writeEnd) } }
        LineSource.start(reading: fromServer.readEnd) { line in
            feed.yield(line.map(Event.serverLine) ?? .serverEnded)
        }
        try await Self.awaitOwner(serverOwners, "notification-terminal-server to own org.freedesktop.Notifications")

        // The real daemon. The private bus stands in for the system bus too, so the demo never asks the desktop's
        // logind whether the session is locked: here it is not, and Delete runs at once.
        let daemonOwners = try await client.nameOwnerChanges(of: BridgeAPI.busName)
        var environment = bus.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = bus.address
        environment["XDG_STATE_HOME"] = bus.directory.appendingPathComponent("state").path
        _ = try processes.start(
            "notification-bridged", [daemonPath, "--log-level", "error"],
            environment: environment)
        try await Self.awaitOwner(daemonOwners, "notification-bridged to own \(BridgeAPI.busName)")
        say("notification-bridged serves \(BridgeAPI.interfaceName); notification-terminal-server shows what it posts.")

        let bridge = BridgeClient(connection: client)
        let reports = try await bridge.reports()
        let relay = Task {
            for await report in reports { feed.yield(.report(report)) }
        }
        defer { relay.cancel() }
        try await bridge.registerCategory(DemoMessages.category)
        say(
            "The Mail app registered category 'message': Reply (typed text), Mark as Read, Delete (destructive, "
                + "needs the session unlocked), Open (brings the app up).")

        var messages: [String: DemoMessages.Message] = [:]
        for message in DemoMessages.messages {
            let id = try await bridge.post(message.post)
            messages[id] = message
            if let delay = message.delay {
                say("Mail scheduled “\(message.title)” for \(Int(delay)) s from now (id \(id)).")
            } else {
                say("Mail posted “\(message.title)” (id \(id)).")
            }
        }
        let pending = try await bridge.pendingTitles()
        say("Waiting in the daemon: " + pending.map { "“\($0)”" }.joined(separator: ", "))

        let deadline = auto ? Self.deadline(feed) : nil
        if auto {
            say("The script plays the user: it reads each notification and types a command for it.")
        } else {
            say(
                "Your turn: type a button's number (or '#ID N'), 'reply TEXT', 'dismiss', 'list' or 'help'. "
                    + "Ctrl-D or Ctrl-C ends the demo.")
            LineSource.start(reading: STDIN_FILENO) { line in feed.yield(line.map(Event.userLine) ?? .userEnded) }
        }
        defer { deadline?.cancel() }

        var cards = CardReader()
        var outcome = Outcome(messages: messages, checksResponses: auto)
        loop: for await event in events {
            switch event {
            case .serverLine(let line):
                output.line(line)
                guard auto, let card = cards.read(line) else { continue }
                guard let command = try Self.command(for: card) else { continue }
                Task {
                    do {
                        try await bridge.waitUntilDelivered(title: card.title)
                        feed.yield(.scripted(command))
                    } catch {
                        feed.yield(.failed("\(error)"))
                    }
                }
            case .scripted(let command):
                say("the user types: \(command)")
                serverInput.write(command + "\n")
            case .failed(let message):
                throw DemoFailure(message)
            case .serverEnded:
                if auto && !outcome.isComplete {
                    throw DemoFailure(
                        "notification-terminal-server stopped before every response arrived; "
                            + outcome.missing)
                }
                break loop
            case .userLine(let line):
                if serverInputOpen { serverInput.write(line + "\n") }
            case .userEnded:
                // The terminal server ends with its input; its end ends the loop.
                if serverInputOpen { close(toServer.writeEnd) }
                serverInputOpen = false
            case .report(let report):
                for line in try outcome.record(report) { say(line) }
                if outcome.isComplete {
                    say(
                        auto
                            ? "Every response reached the app: the reply with its text, Mark as Read, Delete and Open "
                                + "with its activation token."
                            : "Every notification has been answered.")
                    break loop
                }
            case .deadline:
                throw DemoFailure("not every response arrived within \(Self.autoDeadline); \(outcome.missing)")
            }
        }
    }

    /// What the scripted user types for `card`, or `nil` for a notification the demo did not post.
    private static func command(for card: CardReader.Card) throws -> String? {
        guard let message = DemoMessages.messages.first(where: { $0.title == card.title }) else { return nil }
        guard let button = message.button else {
            guard card.hasReplyField, let text = message.text else {
                throw DemoFailure("“\(card.title)” (#\(card.id)) shows no reply field")
            }
            return "reply #\(card.id) \(text)"
        }
        guard let number = card.buttons[button] else {
            throw DemoFailure(
                "“\(card.title)” (#\(card.id)) shows no button '\(button)'; it shows "
                    + card.buttons.keys.sorted().joined(separator: ", "))
        }
        return "#\(card.id) \(number)"
    }

    /// Yields `.deadline` once the scripted run has taken too long, unless cancelled first.
    private static func deadline(_ feed: AsyncStream<Event>.Continuation) -> Task<Void, Never> {
        Task {
            do {
                try await Task.sleep(for: autoDeadline)
                feed.yield(.deadline)
            } catch {
                // Cancelled: the demo ended in time.
            }
        }
    }

    private static func awaitOwner(_ owners: AsyncStream<String?>, _ what: String) async throws {
        do {
            try await withTimeout(startLimit, waitingFor: what) {
                for await owner in owners where owner != nil { return }
                throw DemoFailure("the bus connection closed while waiting for \(what)")
            }
        } catch {
            throw DemoFailure("\(error) (its own message, if any, is above)")
        }
    }
}

/// A pipe whose ends are not inherited by programs the demo starts (a child's copy of the write end would keep the
/// reader from ever seeing the end of the input).
struct DemoPipe {
    let readEnd: Int32
    let writeEnd: Int32

    static func make() throws -> DemoPipe {
        do {
            let ends = try ClosedOnExecPipe.make()
            return DemoPipe(readEnd: ends.read, writeEnd: ends.write)
        } catch {
            throw DemoFailure("cannot make a pipe: \(error)")
        }
    }
}
