import DBusCore
import Dispatch
import FoundationEssentials
import Glibc
import NotificationServerKit

/// `notification-terminal-server`: owns `org.freedesktop.Notifications`, shows each notification in the terminal and
/// performs what the user types.
public enum TerminalServer {
    /// Why the server stopped.
    public enum Ending: Sendable, Hashable {
        /// The input ended (Ctrl-D, or the end of a script).
        case endOfInput
        /// The user typed `quit`.
        case quit
        /// SIGINT or SIGTERM.
        case signal(Int32)
        /// Another server took the name over (`--replace`).
        case replaced
        /// The bus went away.
        case busClosed
    }

    /// What can happen while serving, funnelled into one ordered stream.
    private enum Input: Sendable {
        case event(NotificationServerEvent)
        case line(String)
        case endOfInput
        case signal(Int32)
        case nameLost
        case busClosed
    }

    /// Serves until the input ends, the user quits, a signal comes or the name is taken over; gives the name back
    /// before returning.
    ///
    /// - Parameters:
    ///   - input: the descriptor commands are read from, a line at a time (standard input by default).
    ///   - output: where notifications and answers go.
    /// - Throws: ``TerminalServerError`` when the bus cannot be reached or the name is taken.
    public static func run(
        _ configuration: TerminalServerConfiguration, input: Int32 = STDIN_FILENO,
        output: TerminalOutput = TerminalOutput()
    ) async throws -> Ending {
        let (inputs, feed) = AsyncStream.makeStream(of: Input.self, bufferingPolicy: .unbounded)
        // Signals first, so a SIGTERM during start-up is not fatal.
        let signalSources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { feed.yield(.signal(number)) }
            source.resume()
            return source
        }
        defer { signalSources.forEach { $0.cancel() } }

        let connection: DBusConnection
        do {
            connection = try await DBusConnection.connect(to: configuration.bus)
        } catch {
            throw TerminalServerError.cannotConnect(bus: configuration.bus, reason: "\(error)")
        }
        let server = NotificationServer()
        let events = server.events()
        let nameEvents = try await connection.nameEvents()
        do {
            try await server.start(
                on: connection, profile: configuration.profile, replacingOwner: configuration.replacesRunningServer,
                allowingReplacement: true)
        } catch NotificationServerError.nameTaken(let owner) {
            await connection.close()
            throw TerminalServerError.nameTaken(owner: owner, triedReplacing: configuration.replacesRunningServer)
        } catch {
            await connection.close()
            throw error
        }

        let session = TerminalSession(server: server, output: output, configuration: configuration)
        let capabilities = configuration.profile.capabilities.joined(separator: ", ")
        // The server's work, and what the loop below reads besides the input, live in one group that ends with it.
        let ending = await withDiscardingTaskGroup { group -> Ending in
            group.addTask { await server.run() }
            group.addTask {
                for await event in events { feed.yield(.event(event)) }
            }
            group.addTask {
                for await event in nameEvents where event == .lost(NotificationServer.busName) {
                    feed.yield(.nameLost)
                }
                // The stream ends by itself when the connection is gone.
                if !Task.isCancelled { feed.yield(.busClosed) }
            }
            LineSource.start(reading: input) { line in
                feed.yield(line.map(Input.line) ?? .endOfInput)
            }
            output.line(
                configuration.style.dim(
                    "Serving \(NotificationServer.busName) on \(connection.uniqueName) (\(capabilities)). "
                        + "Type 'help' for the commands."))
            session.prompt()
            let ending = await Self.serve(inputs, session: session)
            group.cancelAll()
            return ending
        }
        if configuration.showsPrompt { output.line("") }
        await connection.close()
        return ending
    }

    /// Reads the inputs until one ends the server.
    private static func serve(_ inputs: AsyncStream<Input>, session: TerminalSession) async -> Ending {
        for await item in inputs {
            switch item {
            case .event(let event):
                await session.handle(event)
            case .line(let line):
                if !(await session.handle(line: line)) { return .quit }
            case .endOfInput:
                return .endOfInput
            case .signal(let number):
                return .signal(number)
            case .nameLost:
                return .replaced
            case .busClosed:
                return .busClosed
            }
        }
        return .endOfInput
    }
}
