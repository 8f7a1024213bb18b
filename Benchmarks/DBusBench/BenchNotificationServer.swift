import DBusCore
import Foundation
import Synchronization

/// The smallest `org.freedesktop.Notifications` server that clients cannot tell from a real one for what the
/// benchmark does: it answers `Notify` with a fresh id, closes on `CloseNotification`, and clicks an action when told
/// to, signalling the sender alone (as GNOME Shell and dunst do), then closing the notification (reason 2).
///
/// It runs in the benchmark process on its own connection, and keeps nothing but the sender of each live
/// notification, so that it costs the same at the millionth call as at the first: the floor every row shares.
/// (NotificationServerKit records every call and looks notifications up in a list, which tests want and a
/// throughput or churn run would end up measuring.)
///
/// Besides the standard interface it serves `io.github.NotificationBridge.Bench1.InvokeAction(u id, s key)` (id 0:
/// the latest notification), so that a client in another process can ask for a click and time its answer.
final class BenchNotificationServer: Sendable {
    static let objectPath: DBusObjectPath = "/org/freedesktop/Notifications"
    static let interfaceName = "org.freedesktop.Notifications"
    static let benchInterfaceName = "io.github.NotificationBridge.Bench1"

    /// How the server answers `Notify`: a real server takes a while, and a busy or hung one takes long.
    enum NotifyLatency: Sendable, Equatable {
        /// At once.
        case none
        /// Each answer this long after its call, however many are out: a server that is slow to answer but takes
        /// calls side by side.
        case concurrent(Duration)
        /// One call at a time, each taking this long: a single-threaded server that is busy.
        case serial(Duration)
    }

    private struct State {
        var latency = NotifyLatency.none
        var nextID: UInt32 = 1
        var latestID: UInt32 = 0
        var senders: [UInt32: String] = [:]
        /// When each click was signalled, in order.
        var emitted: [UInt64] = []
        /// Arrival times of notifications whose summary starts with `arrivalPrefix`.
        var arrivals: [(summary: String, at: UInt64)] = []
    }

    private let state = Mutex(State())
    private let connection: DBusConnection
    /// Summaries with this prefix have their arrival time noted.
    static let arrivalPrefix = "due "

    private init(connection: DBusConnection) {
        self.connection = connection
    }

    /// Exports the server on `connection` and takes the name.
    static func start(on connection: DBusConnection) async throws -> BenchNotificationServer {
        let server = BenchNotificationServer(connection: connection)
        try await connection.export(server.interfaces(), at: objectPath)
        let reply = try await connection.requestName("org.freedesktop.Notifications", flags: [.doNotQueue])
        guard reply == .primaryOwner else { throw BenchError("cannot own org.freedesktop.Notifications on the bus") }
        return server
    }

    /// Sets how `Notify` is answered from the next call on.
    func setNotifyLatency(_ latency: NotifyLatency) {
        state.withLock { $0.latency = latency }
    }

    /// The id of the latest notification.
    var latestID: UInt32 { state.withLock { $0.latestID } }

    /// How many notifications it shows: those notified and not closed.
    var showing: Int { state.withLock { $0.senders.count } }

    /// When each click was signalled since the last call, oldest first; the list starts again empty.
    func takeEmitted() -> [UInt64] {
        state.withLock { state in
            defer { state.emitted = [] }
            return state.emitted
        }
    }

    /// Arrival times (monotonic ns) of notifications whose summary starts with ``arrivalPrefix``, by summary.
    func arrivals() -> [String: UInt64] {
        state.withLock { Dictionary($0.arrivals.map { ($0.summary, $0.at) }, uniquingKeysWith: { first, _ in first }) }
    }

    /// Clicks action `key` of notification `id` (0: the latest): `ActionInvoked` to its sender, noting the time just
    /// before, then `NotificationClosed(id, 2)`, both sent from the connection's thread soon after this returns.
    func invoke(id: UInt32, key: String) throws {
        let (target, sender): (UInt32, String?) = state.withLock { state in
            let target = id == 0 ? state.latestID : id
            return (target, state.senders.removeValue(forKey: target))
        }
        guard let sender else { throw BenchError("the server has no notification \(target) to click") }
        // On the connection's own thread, the time is taken just before libdbus sends: a click asked for from
        // another thread would otherwise count that thread's wake-up against whoever receives the signal.
        Task(executorPreference: connection.executor) { [self] in
            state.withLock { $0.emitted.append(monotonicNanoseconds()) }
            do {
                try connection.emit(
                    path: Self.objectPath, interface: Self.interfaceName, member: "ActionInvoked",
                    arguments: [.uint32(target), .string(key)], destination: sender)
                try connection.emit(
                    path: Self.objectPath, interface: Self.interfaceName, member: "NotificationClosed",
                    arguments: [.uint32(target), .uint32(2)], destination: sender)
            } catch {
                FileHandle.standardError.write(Data("bench server: cannot click: \(error)\n".utf8))
            }
        }
    }

    private func notify(_ call: DBusMethodCall) -> [DBusValue] {
        let arrival = monotonicNanoseconds()
        let id: UInt32 = state.withLock { state in
            var id = UInt32(0)
            if call.arguments.count == 8, case .uint32(let replaces) = call.arguments[1], replaces != 0,
                state.senders[replaces] != nil
            {
                id = replaces
            } else {
                id = state.nextID
                state.nextID = state.nextID == .max ? 1 : state.nextID + 1
            }
            state.senders[id] = call.sender
            state.latestID = id
            if call.arguments.count == 8, case .string(let summary) = call.arguments[3],
                summary.hasPrefix(Self.arrivalPrefix)
            {
                state.arrivals.append((summary, arrival))
            }
            return id
        }
        return [.uint32(id)]
    }

    private func close(_ call: DBusMethodCall) throws -> [DBusValue] {
        guard case .uint32(let id)? = call.arguments.first else { return [] }
        guard let sender = state.withLock({ $0.senders.removeValue(forKey: id) }) else { return [] }
        try connection.emit(
            path: Self.objectPath, interface: Self.interfaceName, member: "NotificationClosed",
            arguments: [.uint32(id), .uint32(3)], destination: sender)
        return []
    }

    private func interfaces() -> [DBusInterface] {
        [
            DBusInterface(
                Self.interfaceName,
                methods: [
                    DBusMethod("GetCapabilities", outputs: [.init("capabilities", "as")]) { _ in
                        [.array(element: "s", ["actions", "body", "persistence"].map(DBusValue.string))]
                    },
                    DBusMethod.deferred(
                        "Notify",
                        inputs: [
                            .init("app_name", "s"), .init("replaces_id", "u"), .init("app_icon", "s"),
                            .init("summary", "s"), .init("body", "s"), .init("actions", "as"),
                            .init("hints", "a{sv}"), .init("expire_timeout", "i"),
                        ],
                        outputs: [.init("id", "u")]
                    ) { [self] call in
                        switch state.withLock({ $0.latency }) {
                        case .none:
                            call.reply(notify(call))
                        case .concurrent(let delay):
                            // One sleeping task per call is the point here: the answers overlap.
                            Task {
                                try? await Task.sleep(for: delay)
                                call.reply(notify(call))
                            }
                        case .serial(let delay):
                            try? await Task.sleep(for: delay)
                            call.reply(notify(call))
                        }
                    },
                    DBusMethod("CloseNotification", inputs: [.init("id", "u")]) { [self] call in try close(call) },
                    DBusMethod(
                        "GetServerInformation",
                        outputs: [.init("name", "s"), .init("vendor", "s"), .init("version", "s"), .init("spec", "s")]
                    ) { _ in ["bench-server", "NotificationBridge", "1", "1.3"].map(DBusValue.string) },
                ],
                signals: [
                    DBusSignalDescription("NotificationClosed", arguments: [.init("id", "u"), .init("reason", "u")]),
                    DBusSignalDescription("ActionInvoked", arguments: [.init("id", "u"), .init("action_key", "s")]),
                ]),
            DBusInterface(
                Self.benchInterfaceName,
                methods: [
                    DBusMethod.deferred("InvokeAction", inputs: [.init("id", "u"), .init("key", "s")]) {
                        [self] call in
                        guard call.arguments.count == 2, case .uint32(let id) = call.arguments[0],
                            case .string(let key) = call.arguments[1]
                        else { return call.fail(name: "org.freedesktop.DBus.Error.InvalidArgs", message: "(us)") }
                        // Answer first, so that the caller is already waiting for the signal when it leaves.
                        call.reply([])
                        do {
                            try invoke(id: id, key: key)
                        } catch {
                            FileHandle.standardError.write(Data("bench server: \(error)\n".utf8))
                        }
                    }
                ]),
        ]
    }
}

/// A failure of the benchmark itself, with what went wrong.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
