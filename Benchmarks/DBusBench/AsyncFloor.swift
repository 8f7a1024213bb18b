import CDBus
import Foundation
import Synchronization

/// The floor under an async Swift API on libdbus, measured beside the library: a raw libdbus connection that one
/// thread owns, as a `DBusConnection`'s is owned, and nothing else.
///
/// A task hands the thread its work (a call made with libdbus's blocking call) and is resumed on Swift's pool when
/// the reply is in; a signal read on the thread starts a task on the pool. A C client that blocks its only thread
/// pays neither hand-off; a library whose connection one thread owns, and whose callers are tasks that must not
/// block, pays them whatever else it does. What lies between this floor and raw libdbus is the price of those
/// hand-offs; what lies above it is the library's own work.
final class RawConnectionThread: @unchecked Sendable {
    /// Owned by `thread`: no other thread uses it once `init` returns.
    private let connection: OpaquePointer
    private let jobs = Mutex<[Job]>([])
    private let wakeUp = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    private enum Job {
        case run(@Sendable (OpaquePointer) -> Void)
        case stop
    }

    /// Connects to the bus at `address` and starts the thread.
    init(address: String) throws {
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let connection = dbus_connection_open_private(address, &error) else {
            throw BenchError("the async floor cannot connect: \(Self.describe(error))")
        }
        guard dbus_bus_register(connection, &error) != 0 else {
            dbus_connection_close(connection)
            dbus_connection_unref(connection)
            throw BenchError("the async floor cannot register on the bus: \(Self.describe(error))")
        }
        self.connection = connection
        let thread = Thread { [self] in serve() }
        thread.name = "async floor"
        thread.start()
    }

    /// Runs `body` on the thread with the connection, and resumes the caller with what it returned.
    func run<T: Sendable>(_ body: @escaping @Sendable (OpaquePointer) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            submit { connection in continuation.resume(with: Result { try body(connection) }) }
        }
    }

    /// Has the thread run `body` once the work before it is done; does not wait for it.
    func submit(_ body: @escaping @Sendable (OpaquePointer) -> Void) {
        jobs.withLock { $0.append(.run(body)) }
        wakeUp.signal()
    }

    /// Ends the thread after the work submitted before, and closes the connection.
    func stop() {
        jobs.withLock { $0.append(.stop) }
        wakeUp.signal()
        finished.wait()
    }

    private func serve() {
        defer {
            dbus_connection_close(connection)
            dbus_connection_unref(connection)
            finished.signal()
        }
        while true {
            wakeUp.wait()
            let taken = jobs.withLock { jobs in
                defer { jobs = [] }
                return jobs
            }
            for job in taken {
                switch job {
                case .run(let body): body(connection)
                case .stop: return
                }
            }
        }
    }

    // MARK: - What the floors do on the thread, as the C client does it

    /// Calls `method` with `message`'s arguments and returns the reply, which the caller unrefs.
    static func call(_ connection: OpaquePointer, _ message: OpaquePointer, _ method: String) throws -> OpaquePointer {
        defer { dbus_message_unref(message) }
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let reply = dbus_connection_send_with_reply_and_block(connection, message, 25_000, &error) else {
            throw BenchError("\(method) failed: \(describe(error))")
        }
        return reply
    }

    /// `Echo(text)` to the C echo server; returns the string it answered.
    static func echo(_ connection: OpaquePointer, _ text: String) throws -> String {
        guard
            let message = dbus_message_new_method_call(
                CoreSuite.benchName, CoreSuite.benchPath.rawValue, CoreSuite.benchInterface, "Echo")
        else { throw BenchError("no memory") }
        var arguments = DBusMessageIter()
        dbus_message_iter_init_append(message, &arguments)
        appendString(&arguments, text)
        let reply = try call(connection, message, "Echo")
        defer { dbus_message_unref(reply) }
        return try firstString(of: reply)
    }

    /// The C client's `Notify` (with its one action when `withAction`); returns the server's id.
    static func notify(_ connection: OpaquePointer, withAction: Bool) throws -> UInt32 {
        guard
            let message = dbus_message_new_method_call(
                "org.freedesktop.Notifications", "/org/freedesktop/Notifications", "org.freedesktop.Notifications",
                "Notify")
        else { throw BenchError("no memory") }
        var arguments = DBusMessageIter()
        dbus_message_iter_init_append(message, &arguments)
        appendString(&arguments, "Bench")
        var replaces: UInt32 = 0
        _ = dbus_message_iter_append_basic(&arguments, CDBUS_TYPE_UINT32, &replaces)
        appendString(&arguments, "")
        appendString(&arguments, "Bench")
        appendString(&arguments, "a notification from the benchmark")
        var actions = DBusMessageIter()
        _ = dbus_message_iter_open_container(&arguments, CDBUS_TYPE_ARRAY, "s", &actions)
        if withAction {
            appendString(&actions, "open")
            appendString(&actions, "Open")
        }
        _ = dbus_message_iter_close_container(&arguments, &actions)
        var hints = DBusMessageIter()
        _ = dbus_message_iter_open_container(&arguments, CDBUS_TYPE_ARRAY, "{sv}", &hints)
        var urgency: UInt8 = 1
        appendEntry(&hints, "urgency", "y", CDBUS_TYPE_BYTE, &urgency)
        var pid = Int64(getpid())
        appendEntry(&hints, "sender-pid", "x", CDBUS_TYPE_INT64, &pid)
        _ = dbus_message_iter_close_container(&arguments, &hints)
        var timeout: Int32 = -1
        _ = dbus_message_iter_append_basic(&arguments, CDBUS_TYPE_INT32, &timeout)
        let reply = try call(connection, message, "Notify")
        defer { dbus_message_unref(reply) }
        var read = DBusMessageIter()
        guard dbus_message_iter_init(reply, &read) != 0, dbus_message_iter_get_arg_type(&read) == CDBUS_TYPE_UINT32
        else { throw BenchError("Notify answered something other than an id") }
        var id: UInt32 = 0
        dbus_message_iter_get_basic(&read, &id)
        return id
    }

    /// Asks the bus for the server's `ActionInvoked` signals.
    static func watchActions(_ connection: OpaquePointer) throws {
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        dbus_bus_add_match(
            connection, "type='signal',interface='org.freedesktop.Notifications',member='ActionInvoked'", &error)
        if dbus_error_is_set(&error) != 0 { throw BenchError("AddMatch failed: \(describe(error))") }
    }

    /// Reads until `ActionInvoked` for `id` arrives (`true`), or for `limit` (`false`).
    static func awaitAction(_ connection: OpaquePointer, id: UInt32, within limit: Duration) -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            while let message = dbus_connection_pop_message(connection) {
                defer { dbus_message_unref(message) }
                guard dbus_message_is_signal(message, "org.freedesktop.Notifications", "ActionInvoked") != 0
                else { continue }
                var read = DBusMessageIter()
                guard dbus_message_iter_init(message, &read) != 0,
                    dbus_message_iter_get_arg_type(&read) == CDBUS_TYPE_UINT32
                else { continue }
                var invoked: UInt32 = 0
                dbus_message_iter_get_basic(&read, &invoked)
                if invoked == id { return true }
            }
            let left = ContinuousClock.now.duration(to: deadline).components
            let milliseconds = Int32(clamping: max(1, left.seconds * 1000 + left.attoseconds / 1_000_000_000_000_000))
            guard dbus_connection_read_write(connection, milliseconds) != 0 else { return false }
        }
        return false
    }

    private static func appendString(_ iterator: inout DBusMessageIter, _ text: String) {
        text.withCString { text in
            var pointer: UnsafePointer<CChar>? = text
            _ = dbus_message_iter_append_basic(&iterator, CDBUS_TYPE_STRING, &pointer)
        }
    }

    private static func appendEntry<T: BitwiseCopyable>(
        _ dictionary: inout DBusMessageIter, _ key: String, _ signature: String, _ type: Int32, _ value: inout T
    ) {
        var entry = DBusMessageIter()
        var variant = DBusMessageIter()
        _ = dbus_message_iter_open_container(&dictionary, CDBUS_TYPE_DICT_ENTRY, nil, &entry)
        appendString(&entry, key)
        _ = dbus_message_iter_open_container(&entry, CDBUS_TYPE_VARIANT, signature, &variant)
        _ = dbus_message_iter_append_basic(&variant, type, &value)
        _ = dbus_message_iter_close_container(&entry, &variant)
        _ = dbus_message_iter_close_container(&dictionary, &entry)
    }

    private static func firstString(of message: OpaquePointer) throws -> String {
        var read = DBusMessageIter()
        guard dbus_message_iter_init(message, &read) != 0, dbus_message_iter_get_arg_type(&read) == CDBUS_TYPE_STRING
        else { throw BenchError("the reply holds no string") }
        var pointer: UnsafePointer<CChar>?
        dbus_message_iter_get_basic(&read, &pointer)
        return pointer.map { String(cString: $0) } ?? ""
    }

    private static func describe(_ error: DBusError) -> String {
        error.message.map { String(cString: $0) } ?? "no reason given"
    }
}
