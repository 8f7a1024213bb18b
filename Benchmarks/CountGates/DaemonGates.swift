import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI

/// The daemon's paths, counted: `notification-bridged` runs under the counter on the gates' private bus, with the
/// gates' notification server, while an uncounted client here makes the calls. Each path runs twice, with N and 2N
/// operations (or listings); the difference over N is the cost of one operation, start-up and shutdown cancelled out.
struct DaemonGates {
    /// The app name the gates' server looks for to click the default action.
    static let respondAppName = "GateRespond"
    /// How many notifications the listing and start-up paths keep pending.
    static let pending = 10_000
    /// The app they are posted as, which the listing names (a listing without one lists the caller's own).
    static let pendingAppName = "GatePending"

    let bus: PrivateBus
    let client: DBusConnection
    let counter: Counter
    let daemon: String
    let cli: String
    let folder: URL
    let operations: Int
    /// How many times each counted run is made (the least is kept).
    let repeats: Int

    private var log: String { folder.appendingPathComponent("daemon.log").path }

    private func environment(stateHome: URL) -> [String: String] {
        var environment = bus.environment
        environment["XDG_STATE_HOME"] = stateHome.path
        environment["HOME"] = folder.path
        // No system bus: the daemon follows the session's screen lock alone, as it does without logind.
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/system_bus_socket"
        return environment
    }

    private func freshStateHome(_ tag: String) throws -> URL {
        let stateHome = folder.appendingPathComponent("state-\(tag)")
        try? FileManager.default.removeItem(at: stateHome)
        try FileManager.default.createDirectory(at: stateHome, withIntermediateDirectories: true)
        return stateHome
    }

    /// Starts the daemon (counted unless `counted` is false) with its state in `stateHome`, runs `body` once it owns
    /// its name, stops it with SIGTERM and returns what the run cost (nil when not counted).
    @discardableResult
    private func withDaemon(
        tag: String, stateHome: URL, counted: Bool = true, _ body: @escaping @Sendable () async throws -> Void
    ) async throws -> Counts? {
        let owners = try await client.nameOwnerChanges(of: BridgeAPI.busName)
        let arguments = [daemon]
        let output = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        defer { close(output) }
        let child =
            counted
            ? try counter.spawn(arguments, tag: tag, environment: environment(stateHome: stateHome), log: log)
            : try ChildProcess.spawn(
                arguments, environment: environment(stateHome: stateHome), standardOutput: output, standardError: output
            )
        do {
            try await withTimeout(.seconds(300), waitingFor: "notification-bridged (\(tag)) to own its name") {
                // A daemon that ends first (it could not start, or what was preloaded into it stopped it) fails the
                // run at once, rather than at the end of the wait.
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { for await owner in owners where owner != nil { return } }
                    group.addTask {
                        while true {
                            if let status = child.poll() {
                                throw GateError(
                                    "notification-bridged (\(tag)) ended with \(status) before it owned its name")
                            }
                            try await Task.sleep(for: .milliseconds(50))
                        }
                    }
                    try await group.next()
                    group.cancelAll()
                }
            }
            try await withTimeout(.seconds(600), waitingFor: "the operations of \(tag)", body)
        } catch {
            child.stop()
            throw GateError("\(error); the daemon's log: \(log)")
        }
        child.signal(SIGTERM)
        guard let status = await child.wait(within: .seconds(300)) else {
            child.stop()
            throw GateError("notification-bridged (\(tag)) did not end within 300 s of SIGTERM; its log: \(log)")
        }
        guard status == 0 else { throw GateError("notification-bridged (\(tag)) ended with \(status); log: \(log)") }
        return counted ? try counter.counts(of: tag) : nil
    }

    /// Runs `path` with N and with 2N operations (see ``costOfOne(_:operations:repeats:_:)``): the cost of one.
    private func perOperation(
        _ path: String, _ operation: @escaping @Sendable (BridgeProxy) async throws -> Void
    ) async throws -> Counts {
        try await costOfOne(path, operations: operations, repeats: repeats) { count, tag in
            let proxy = BridgeProxy(connection: client, timeout: .seconds(300))
            let counts = try await withDaemon(tag: tag, stateHome: try freshStateHome(tag)) {
                for _ in 0..<count { try await operation(proxy) }
            }
            guard let counts else { throw GateError("\(tag) was not counted") }
            return counts
        }
    }

    /// `Post` of a notification shown at once, answered once the server has it.
    func post() async throws -> Counts {
        try await perOperation("daemon-post") { proxy in
            var entries = WireEntries()
            entries[PostKeys.title] = "Gate"
            entries[PostKeys.body] = "a notification from the gates"
            _ = try await proxy.post(entries)
        }
    }

    /// `Post`, then the server's click on the body, which reaches this client as `Responded`.
    func respond() async throws -> Counts {
        let responses = try await BridgeProxy(connection: client).events([.responded])
        let iterator = SharedIterator(responses.makeAsyncIterator())
        return try await perOperation("daemon-respond") { proxy in
            var entries = WireEntries()
            entries[PostKeys.title] = "Gate"
            entries[PostKeys.body] = "a notification from the gates"
            entries[PostKeys.appName] = Self.respondAppName
            entries[PostKeys.defaultAction] = "Open"
            let id = try await proxy.post(entries)
            while let event = await iterator.next() {
                if case .responded(let response) = event, response.notificationID == id { return }
            }
            throw GateError("the client's signals ended before Responded")
        }
    }

    /// A listing of 10,000 pending notifications (each run: start, 1 or 2 listings, stop), and from the same runs
    /// the start with them: the run with one listing, less the listing.
    func listingAndStart() async throws -> (listing: Counts, start: Counts) {
        let stored = try await storePending()
        var runs: [Counts] = []
        for listings in [1, 2] {
            progress("daemon-list: start with \(Self.pending) pending and \(listings) listing(s), counted")
            let tag = "daemon-list-\(listings)"
            let stateHome = folder.appendingPathComponent("state-\(tag)")
            try? FileManager.default.removeItem(at: stateHome)
            try FileManager.default.copyItem(at: stored, to: stateHome)
            let client = self.client
            var filter = WireEntries()
            filter[FilterKeys.appName] = Self.pendingAppName
            let arguments = [filter.value]
            let counts = try await withDaemon(tag: tag, stateHome: stateHome) {
                for _ in 0..<listings {
                    let listed = try await client.call(
                        destination: BridgeAPI.busName, path: BridgeAPI.objectPath,
                        interface: BridgeAPI.interfaceName, method: BridgeMethod.listPending.name,
                        arguments: arguments, timeout: .seconds(300))
                    guard case .array(_, let items)? = listed.first, items.count == Self.pending else {
                        let count = listed.first.map { value -> String in
                            guard case .array(_, let items) = value else { return "not a list" }
                            return "\(items.count)"
                        }
                        throw GateError(
                            "ListPending listed \(count ?? "nothing"), not the \(Self.pending) pending notifications")
                    }
                }
            }
            if let counts { runs.append(counts) }
        }
        let listing = runs[1] - runs[0]
        return (listing, runs[0] - listing)
    }

    /// A state folder with 10,000 notifications scheduled a year ahead, posted to an uncounted daemon.
    private func storePending() async throws -> URL {
        progress("daemon-list: storing \(Self.pending) pending notifications (not counted)")
        let stateHome = try freshStateHome("stored")
        let bus = self.bus
        try await withDaemon(tag: "store", stateHome: stateHome, counted: false) {
            let clients = 4
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<clients {
                    group.addTask {
                        let connection = try await bus.connect()
                        let proxy = BridgeProxy(connection: connection, timeout: .seconds(60))
                        for number in stride(from: index, to: Self.pending, by: clients) {
                            var entries = WireEntries()
                            entries[PostKeys.title] = "Pending \(number)"
                            entries[PostKeys.appName] = Self.pendingAppName
                            entries[PostKeys.body] = "a notification from the gates"
                            entries[PostKeys.delay] = 31_536_000
                            _ = try await proxy.post(entries)
                        }
                        await connection.close()
                    }
                }
                try await group.waitForAll()
            }
        }
        return stateHome
    }

    /// One `notification-bridge send`, the whole process, counted, against an uncounted daemon.
    func send() async throws -> Counts {
        let stateHome = try freshStateHome("send")
        let counter = self.counter
        let cli = self.cli
        let environment = environment(stateHome: stateHome)
        let log = self.log
        try await withDaemon(tag: "send-daemon", stateHome: stateHome, counted: false) {
            progress("cli-send: one process, counted")
            let child = try counter.spawn(
                [cli, "send", "Gate", "a notification from the gates"], tag: "cli-send", environment: environment,
                log: log)
            guard let status = await child.wait(within: .seconds(300)) else {
                child.stop()
                throw GateError("notification-bridge send did not end within 300 s")
            }
            guard status == 0 else { throw GateError("notification-bridge send ended with \(status); log: \(log)") }
        }
        return try counter.counts(of: "cli-send")
    }
}

/// One async iterator shared by the operations of a run, which take its elements one after the other.
final class SharedIterator<Element: Sendable>: @unchecked Sendable {
    // The runs call `next()` from one operation at a time (each awaits the one before), so the iterator is never
    // used by two tasks at once; the lock makes that a checked fact rather than a hope.
    private var iterator: AsyncStream<Element>.Iterator
    private let lock = NSLock()
    private var busy = false

    init(_ iterator: AsyncStream<Element>.Iterator) {
        self.iterator = iterator
    }

    func next() async -> Element? {
        lock.withLock {
            precondition(!busy, "two operations read the responses at once")
            busy = true
        }
        defer { lock.withLock { busy = false } }
        return await iterator.next()
    }
}
