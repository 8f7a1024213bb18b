import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationBridgeDaemon
import NotificationServerKit
import Synchronization
import Testing

/// The reliability suites, one after the other: each loads the machine on its own, so that a bound on a wait
/// measures the daemon, not the neighbouring suite.
@Suite("Reliability", .serialized)
enum Reliability {}

/// A private bus with a scripted notification server, a client connection, and the built `notification-bridged`
/// started as a process (so it can be killed, and its memory and log read), keeping its state in the bus's folder.
struct DaemonRig: Sendable {
    let bus: PrivateBus
    let server: NotificationServer
    /// The server's connection: closing it is, for the bus and the daemon, the server dying.
    let serverConnection: DBusConnection
    /// Every event of the server since before the daemon started.
    let events: AsyncStream<NotificationServerEvent>
    let client: DBusConnection
    /// The daemon's `XDG_STATE_HOME`: it outlives a daemon that is killed and started again.
    let stateHome: URL
    /// Where the daemon's standard error goes, appended to by every start.
    let log: URL
    /// A folder for the test's own files.
    let directory: URL

    static func with<T: Sendable>(
        _ profile: NotificationServerProfile = .fullFeatured, _ body: (DaemonRig) async throws -> T
    ) async throws -> T {
        try await withPrivateBus { bus in
            let serverConnection = try await bus.connect()
            let server = NotificationServer()
            let events = server.events()
            // The server keeps what it would let expire by itself: on a loaded machine more than its default timeout
            // may pass between a post and the test's click. Expiry is tested where it is the point.
            try await server.start(on: serverConnection, profile: profile.withoutDefaultExpiry)
            async let serverRunning: Void = server.run()
            let client = try await bus.connect()
            let directory = bus.directory.appendingPathComponent("test")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let log = FileManager.default.temporaryDirectory.appendingPathComponent("nb-rel-\(UUID().uuidString).log")
            defer { try? FileManager.default.removeItem(at: log) }
            let rig = DaemonRig(
                bus: bus, server: server, serverConnection: serverConnection, events: events, client: client,
                stateHome: bus.directory.appendingPathComponent("state-home"), log: log, directory: directory)
            let result: Result<T, any Error>
            do {
                result = .success(try await body(rig))
            } catch {
                if let keep = ProcessInfo.processInfo.environment["NB_KEEP_LOG"] {
                    try? FileManager.default.copyItem(at: log, to: URL(fileURLWithPath: keep))
                }
                // The daemon's own account is the first thing to read when a test fails.
                result = .failure(
                    TestSupportError("\(error)\n--- the daemon's log, last part:\n\(rig.logText.suffix(6000))"))
            }
            await serverConnection.close()
            await serverRunning
            await client.close()
            await serverConnection.close()
            return try result.get()
        }
    }

    /// The daemon's folder under `XDG_STATE_HOME`.
    var stateDirectory: URL { stateHome.appendingPathComponent("notification-bridge") }

    var environment: [String: String] {
        var environment = bus.environment
        environment["XDG_STATE_HOME"] = stateHome.path
        environment["HOME"] = directory.path
        return environment
    }

    /// Everything the daemon has written to standard error so far.
    var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// Starts the built daemon with `arguments`; returns once it owns its name.
    func startDaemon(_ arguments: [String] = []) async throws -> ChildProcess {
        let owners = try await client.nameOwnerChanges(of: BridgeAPI.busName)
        let child = try await spawnDaemon(arguments)
        do {
            try await withTimeout(.seconds(20), waitingFor: "notification-bridged to own its name") {
                for await owner in owners where owner != nil { return }
            }
        } catch {
            child.stop()
            throw TestSupportError("\(error); its log: \(logText)")
        }
        return child
    }

    /// Starts the built daemon with `arguments`, its output appended to ``log``, and returns at once.
    ///
    /// - Parameter environment: the daemon's environment; the rig's own (its bus, its state home) unless given.
    func spawnDaemon(_ arguments: [String] = [], environment: [String: String]? = nil) async throws -> ChildProcess {
        let executable = try await Self.daemonExecutable()
        let output = open(log.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        defer { close(output) }
        return try ChildProcess.spawn(
            [executable.path] + arguments, environment: environment ?? self.environment, standardOutput: output,
            standardError: output)
    }

    /// Calls a method of the daemon from `connection` (the rig's client unless given).
    @discardableResult
    func call(
        _ method: String, _ arguments: [DBusValue] = [], from connection: DBusConnection? = nil,
        timeout: Duration = .seconds(20)
    ) async throws -> [DBusValue] {
        try await (connection ?? client).call(
            destination: BridgeAPI.busName, path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName,
            method: method, arguments: arguments, timeout: timeout)
    }

    /// Posts and returns the id.
    func post(_ notification: [String: DBusValue], from connection: DBusConnection? = nil) async throws -> String {
        try await call(BridgeMethod.post.name, [.vardict(notification)], from: connection).decode(String.self)
    }

    /// The ids `ListPending` returns for `filter`.
    func pendingIDs(_ filter: [String: DBusValue] = [:], from connection: DBusConnection? = nil) async throws
        -> Set<String>
    {
        Set(
            try await listed(BridgeMethod.listPending.name, filter, from: connection).compactMap {
                $0[ListedKeys.id.name]?.unwrappedVariant.stringValue
            })
    }

    /// The dictionaries a `List…` method returns for `filter`.
    func listed(_ method: String, _ filter: [String: DBusValue] = [:], from connection: DBusConnection? = nil)
        async throws -> [[String: DBusValue]]
    {
        let reply = try await call(method, [.vardict(filter)], from: connection)
        guard reply.count == 1, case .array(_, let items) = reply[0] else {
            throw TestSupportError("\(method) returned \(reply)")
        }
        return items.compactMap(\.stringKeyedEntries)
    }

    /// The next notification the server receives.
    func nextNotification(within limit: Duration = .seconds(15)) async throws -> ServedNotification {
        let events = self.events
        return try await withTimeout(limit, waitingFor: "the notification server to receive a notification") {
            for await event in events {
                if case .notified(let notification) = event { return notification }
            }
            throw TestSupportError("the server stopped")
        }
    }

    /// The built daemon: `NB_DAEMON_EXECUTABLE` (`make asan` gives its sanitizer build), else the one next to the
    /// test bundle (SwiftPM builds every product before testing).
    static func daemonExecutable() async throws -> URL {
        if let path = ProcessInfo.processInfo.environment["NB_DAEMON_EXECUTABLE"] {
            return URL(fileURLWithPath: path)
        }
        let folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let executable = folder.appendingPathComponent("notification-bridged")
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw TestSupportError("notification-bridged is not built in \(folder.path); run 'swift build' first")
        }
        return executable
    }
}

/// An action list of one plain action.
func plainActions(_ id: String, activation: String = "background") -> DBusValue {
    .array(
        element: "a{sv}",
        [
            .vardict([
                ActionKeys.id.name: .string(id), ActionKeys.title.name: .string(id),
                ActionKeys.activation.name: .string(activation),
            ])
        ])
}

/// An action list of one text-input action.
func textInputActions(_ id: String) -> DBusValue {
    .array(
        element: "a{sv}",
        [
            .vardict([
                ActionKeys.id.name: .string(id), ActionKeys.title.name: .string(id),
                ActionKeys.behavior.name: .string("text-input"),
                ActionKeys.activation.name: .string("background"),
            ])
        ])
}

/// Values gathered by concurrent tasks, in the order they came.
final class Collector<Element: Sendable>: Sendable {
    private let storage = Mutex<[Element]>([])

    /// Adds `element`; returns how many there are now.
    @discardableResult
    func append(_ element: Element) -> Int {
        storage.withLock {
            $0.append(element); return $0.count
        }
    }

    var all: [Element] { storage.withLock { $0 } }
}

/// What `body` returned or threw.
func outcome<T: Sendable>(_ body: () async throws -> T) async -> Result<T, any Error> {
    do {
        return .success(try await body())
    } catch {
        return .failure(error)
    }
}

extension Error {
    /// The D-Bus error name, or `nil` for another error.
    var dbusName: String? { (self as? DBusFailure)?.name }
}
