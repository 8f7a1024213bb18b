internal import CDBus

/// A connection to a message bus: calls, signals, exported objects and bus names.
///
/// Each connection owns one thread on which all of its libdbus objects live; this type hands work to that thread and
/// awaits the results, so no call blocks Swift's cooperative thread pool. Signals arrive in order through
/// `AsyncStream`s; incoming method calls run their handlers one at a time, in arrival order.
///
/// ```swift
/// let bus = try await DBusConnection.connect(to: .session)
/// let reply = try await bus.call(
///     destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
///     interface: "org.freedesktop.Notifications", method: "GetCapabilities")
/// let capabilities = try reply.decode([String].self)
/// ```
public final class DBusConnection: Sendable {
    /// Which bus to connect to.
    public enum Bus: Sendable, Hashable {
        /// The session bus, at `DBUS_SESSION_BUS_ADDRESS`.
        case session
        /// The system bus, at `DBUS_SYSTEM_BUS_ADDRESS` or the standard socket.
        case system
        /// The bus at this address, for example `unix:path=/run/user/1000/bus`.
        case address(String)
    }

    let loop: EventLoop
    let core: ConnectionCore
    private let status: ConnectionStatus

    /// This connection's unique name on the bus, for example `:1.42`.
    public var uniqueName: String { core.uniqueName }

    private init(loop: EventLoop, core: ConnectionCore, status: ConnectionStatus) {
        self.loop = loop
        self.core = core
        self.status = status
    }

    deinit {
        let core = self.core
        loop.submit { dbus_connection_close(core.connection) }
    }

    /// Connects to a bus and registers with it (`Hello`).
    ///
    /// - Throws: ``DBusFailure`` carrying libdbus's error name and message when the bus cannot be reached.
    public static func connect(to bus: Bus = .session) async throws -> DBusConnection {
        let loop = try EventLoop()
        let status = ConnectionStatus()
        let core: ConnectionCore = try await withCheckedThrowingContinuation { continuation in
            loop.start {
                var error = DBusError()
                dbus_error_init(&error)
                defer { dbus_error_free(&error) }
                guard let connection = open(bus, &error) else {
                    continuation.resume(
                        throwing: ConnectionCore.failure(error, message: "cannot connect to the bus"))
                    return nil
                }
                dbus_connection_set_exit_on_disconnect(connection, 0)
                let watches = WatchSet(connection: connection)
                let core = ConnectionCore(connection: connection, loop: loop, status: status)
                watches.onShutdown = { core.shutdown() }
                continuation.resume(returning: core)
                return watches
            }
        }
        return DBusConnection(loop: loop, core: core, status: status)
    }

    static func open(_ bus: Bus, _ error: inout DBusError) -> OpaquePointer? {
        switch bus {
        case .session:
            return dbus_bus_get_private(DBUS_BUS_SESSION, &error)
        case .system:
            return dbus_bus_get_private(DBUS_BUS_SYSTEM, &error)
        case .address(let address):
            guard let connection = dbus_connection_open_private(address, &error) else { return nil }
            guard dbus_bus_register(connection, &error) != 0 else {
                dbus_connection_close(connection)
                dbus_connection_unref(connection)
                return nil
            }
            return connection
        }
    }

    /// An executor that runs tasks on this connection's own thread.
    ///
    /// Work that makes many calls in a row can run there with `withTaskExecutorPreference(connection.executor)`:
    /// each reply then resumes it on the thread that received it, without waking another thread. Keep such work
    /// short and non-blocking, since it shares the thread with every message of the connection.
    public var executor: any TaskExecutor { loop }

    /// Whether the connection is still open.
    public var isConnected: Bool { status.isConnected }

    /// Whether this connection can pass unix file descriptors (``DBusValue/unixFD(_:)``): it runs over a unix socket
    /// and the other end agreed to it. A call or a signal that carries one on a connection that cannot is refused
    /// before it is sent; the bus never sends one on such a connection.
    public var canPassFileDescriptors: Bool { core.canPassFileDescriptors }

    /// Refuses `arguments` that carry a file descriptor when the connection cannot pass one.
    private func checkDescriptors(_ arguments: [DBusValue]) throws(DBusFailure) {
        guard !core.canPassFileDescriptors, arguments.contains(where: \.containsFileDescriptor) else { return }
        throw DBusFailure(
            name: DBusFailure.Name.notSupported,
            message: "this connection cannot pass file descriptors ('h'): connect over a unix socket to a bus that "
                + "accepts them")
    }

    /// Closes the connection: signal streams finish, calls still waiting fail, exported objects stop answering.
    public func close() async {
        let core = self.core
        guard loop.submit({ dbus_connection_close(core.connection) }) else { return }
        await status.waitUntilDisconnected()
    }

    /// Returns when the connection has closed, by ``close()`` or because the bus went away.
    public func waitUntilDisconnected() async {
        await status.waitUntilDisconnected()
    }

    /// Runs `body` on the connection's thread and returns its result.
    func perform<T: Sendable>(_ body: @escaping @Sendable (ConnectionCore) throws -> T) async throws -> T {
        let core = self.core
        return try await withCheckedThrowingContinuation { continuation in
            let accepted = loop.submit {
                continuation.resume(with: Result { try body(core) })
            }
            if !accepted { continuation.resume(throwing: DBusFailure.disconnected()) }
        }
    }

    // MARK: Calls

    /// Calls a method and returns the values of its reply.
    ///
    /// - Parameters:
    ///   - destination: the bus name to call, or `nil` on a peer-to-peer connection.
    ///   - interface: the interface, or `nil` to let the peer pick the method by name.
    ///   - arguments: the arguments; each carries its type.
    ///   - timeout: how long to wait for the reply; past it the call throws `org.freedesktop.DBus.Error.NoReply`.
    /// - Throws: ``DBusFailure`` with the error name and message of an error reply, or for an invalid name or
    ///   argument, a timeout or a closed connection; `CancellationError` when the task is cancelled.
    public func call(
        destination: String?, path: DBusObjectPath, interface: String?, method: String,
        arguments: [DBusValue] = [], timeout: Duration = .seconds(25)
    ) async throws -> [DBusValue] {
        try await callForReply(
            destination: destination, path: path, interface: interface, method: method, arguments: arguments,
            timeout: timeout
        ).values
    }

    /// Calls a method like ``call(destination:path:interface:method:arguments:timeout:)``, and also says which
    /// connection answered: a well-known name may change owners while the call is out.
    ///
    /// - Throws: As ``call(destination:path:interface:method:arguments:timeout:)``.
    public func callForReply(
        destination: String?, path: DBusObjectPath, interface: String?, method: String,
        arguments: [DBusValue] = [], timeout: Duration = .seconds(25)
    ) async throws -> DBusReply {
        try Self.checkCall(destination: destination, interface: interface, method: method, arguments: arguments)
        try checkDescriptors(arguments)
        let milliseconds = Self.milliseconds(timeout)
        let box = PendingCallBox()
        let core = self.core
        let loop = self.loop
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let start: @Sendable () -> Void = {
                    box.continuation = continuation
                    core.startCall(
                        destination: destination, path: path, interface: interface, member: method,
                        arguments: arguments, timeoutMilliseconds: milliseconds, box: box)
                }
                if loop.isCurrent {
                    start()
                } else if !loop.submit(start) {
                    continuation.resume(throwing: DBusFailure.disconnected())
                }
            }
        } onCancel: {
            loop.submit { core.cancelCall(box) }
        }
    }

    /// Calls a method with typed arguments: `try await bus.call(destination: …, method: "Echo", with: "hello")`.
    public func call(
        destination: String?, path: DBusObjectPath, interface: String?, method: String,
        with arguments: any DBusArgument..., timeout: Duration = .seconds(25)
    ) async throws -> [DBusValue] {
        try await call(
            destination: destination, path: path, interface: interface, method: method,
            arguments: arguments.map(\.dbusValue), timeout: timeout)
    }

    /// Sends a method call that asks for no reply (the `NO_REPLY_EXPECTED` flag) and returns at once.
    ///
    /// - Throws: ``DBusFailure`` (`InvalidArgs`) for an invalid name or argument, `Disconnected` once the connection
    ///   is closed.
    public func send(
        destination: String?, path: DBusObjectPath, interface: String?, method: String, arguments: [DBusValue] = []
    ) throws {
        try Self.checkCall(destination: destination, interface: interface, method: method, arguments: arguments)
        try checkDescriptors(arguments)
        let core = self.core
        let accepted = loop.submit {
            guard
                let message = try? ConnectionCore.makeMethodCall(
                    destination: destination, path: path, interface: interface, member: method, arguments: arguments,
                    validated: true)
            else { return }
            dbus_message_set_no_reply(message, 1)
            core.sendAndRelease(message)
        }
        // A closed connection would drop the message without a word.
        guard accepted else { throw DBusFailure.disconnected() }
    }

    /// Checks what a method call is made of before anything is sent: names the specification allows, and values that
    /// form a message body.
    ///
    /// - Throws: ``DBusFailure`` (`InvalidArgs`) saying which part is wrong.
    static func checkCall(
        destination: String?, interface: String?, method: String, arguments: [DBusValue]
    ) throws(DBusFailure) {
        if let destination { try DBusNames.checkBusName(destination) }
        if let interface { try DBusNames.checkInterface(interface) }
        try DBusNames.checkMember(method)
        try arguments.validateMessageBody()
    }

    static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        let total = seconds.multipliedReportingOverflow(by: 1000)
        guard !total.overflow else { return CDBUS_TIMEOUT_INFINITE }
        // The milliseconds of the fraction can carry the sum past Int32 too.
        let milliseconds = total.partialValue + attoseconds / 1_000_000_000_000_000
        guard milliseconds < Int64(Int32.max) else { return CDBUS_TIMEOUT_INFINITE }
        return Int32(milliseconds)
    }

    // MARK: Signals

    /// Emits a signal, broadcast or, with `destination`, to one connection only. Returns once it is queued; signals
    /// leave in the order they were emitted.
    ///
    /// - Throws: ``DBusFailure`` (`InvalidArgs`) for an invalid name or argument, `Disconnected` once the connection
    ///   is closed.
    public func emit(
        path: DBusObjectPath, interface: String, member: String, arguments: [DBusValue] = [],
        destination: String? = nil
    ) throws {
        try DBusNames.checkInterface(interface)
        try DBusNames.checkMember(member)
        if let destination { try DBusNames.checkBusName(destination) }
        try arguments.validateMessageBody()
        try checkDescriptors(arguments)
        let core = self.core
        let accepted = loop.submit {
            guard
                let message = try? ConnectionCore.makeSignal(
                    path: path, interface: interface, member: member, destination: destination, arguments: arguments,
                    validated: true)
            else { return }
            core.sendAndRelease(message)
        }
        guard accepted else { throw DBusFailure.disconnected() }
    }

    /// Subscribes to the signals that match `rule`; they arrive in the order the bus delivered them.
    ///
    /// The rule is active on the bus when this returns, so no matching signal sent afterwards is missed. The stream
    /// buffers without limit; cancelling its iteration (or dropping it) removes the rule. It finishes when the
    /// connection closes.
    public func signals(matching rule: DBusMatchRule) async throws -> AsyncStream<DBusSignal> {
        try await signals(matching: rule) { $0 }
    }

    /// Subscribes to `rule`, delivering what `transform` makes of each matching signal (`nil` skips it).
    ///
    /// `transform` runs on the connection's thread, in order: keep it a quick decoding step.
    public func signals<Element: Sendable>(
        matching rule: DBusMatchRule, transform: @escaping @Sendable (DBusSignal) -> Element?
    ) async throws -> AsyncStream<Element> {
        try rule.validate()
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: .unbounded)
        let trackedSender = rule.sender.flatMap { sender in
            sender.hasPrefix(":") || sender == "org.freedesktop.DBus" ? nil : sender
        }
        let (id, startsTracking) = try await perform { core -> (UInt64, Bool) in
            let id = core.nextSubscriptionID
            core.nextSubscriptionID += 1
            core.subscriptions.append(
                (
                    id,
                    ConnectionCore.Subscription(
                        rule: rule,
                        deliver: { signal in
                            if let element = transform(signal) { continuation.yield(element) }
                        },
                        finish: { continuation.finish() })
                ))
            guard let trackedSender else { return (id, false) }
            let existing = core.trackedOwners[trackedSender]
            core.trackedOwners[trackedSender] = (existing?.owner, (existing?.users ?? 0) + 1)
            return (id, existing == nil)
        }
        continuation.onTermination = { [weak self] _ in
            self?.unsubscribe(id, rule: rule, trackedSender: trackedSender)
        }
        do {
            if let trackedSender, startsTracking {
                try await addMatch(Self.ownerChangeRule(for: trackedSender))
                let owner = try await nameOwner(of: trackedSender)
                _ = try await perform { core in
                    if core.trackedOwners[trackedSender]?.owner == nil {
                        core.trackedOwners[trackedSender]?.owner = owner
                    }
                }
            }
            try await addMatch(rule)
        } catch {
            continuation.finish()
            throw error
        }
        return stream
    }

    private static func ownerChangeRule(for name: String) -> DBusMatchRule {
        DBusMatchRule(
            sender: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "NameOwnerChanged", arg0: name)
    }

    private func addMatch(_ rule: DBusMatchRule) async throws {
        _ = try await call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            method: "AddMatch", arguments: [.string(rule.description)])
    }

    private func unsubscribe(_ id: UInt64, rule: DBusMatchRule, trackedSender: String?) {
        let core = self.core
        loop.submit {
            guard let index = core.subscriptions.firstIndex(where: { $0.id == id }) else { return }
            core.subscriptions.remove(at: index)
            var rules = [rule]
            if let trackedSender, let tracked = core.trackedOwners[trackedSender] {
                if tracked.users <= 1 {
                    core.trackedOwners[trackedSender] = nil
                    rules.append(Self.ownerChangeRule(for: trackedSender))
                } else {
                    core.trackedOwners[trackedSender]?.users -= 1
                }
            }
            for rule in rules {
                guard
                    let message = try? ConnectionCore.makeMethodCall(
                        destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                        interface: "org.freedesktop.DBus", member: "RemoveMatch",
                        arguments: [.string(rule.description)])
                else { continue }
                dbus_message_set_no_reply(message, 1)
                core.sendAndRelease(message)
            }
        }
    }

    // MARK: Exported objects

    /// Exports an object at `path` with the given interfaces, answering calls, `Introspect`, `Properties` and `Peer`.
    ///
    /// - Throws: ``DBusFailure`` (`InvalidArgs`) when a description is invalid or `path` is already exported.
    public func export(_ interfaces: [DBusInterface], at path: DBusObjectPath) async throws {
        var names = Set<String>()
        for interface in interfaces {
            try interface.validate()
            guard !Introspection.standardInterfaces.contains(where: { $0.name == interface.name }) else {
                throw DBusFailure.invalidArgs("\(interface.name) is served by the connection itself; do not export it")
            }
            guard names.insert(interface.name).inserted else {
                throw DBusFailure.invalidArgs("interface \(interface.name) is given twice")
            }
        }
        try await perform { core in
            guard core.objects[path] == nil else {
                throw DBusFailure.invalidArgs("an object is already exported at '\(path)'; unexport it first")
            }
            core.objects[path] = interfaces
            core.startServingIfNeeded()
        }
    }

    /// Stops exporting the object at `path`; calls to it then get `UnknownObject`.
    public func unexport(at path: DBusObjectPath) async {
        _ = try? await perform { core in core.objects[path] = nil }
    }

    /// Emits `org.freedesktop.DBus.Properties.PropertiesChanged` for an exported object, with the current values of
    /// the properties in `changed` (read through their getters) and the names in `invalidated`.
    public func emitPropertiesChanged(
        path: DBusObjectPath, interface: String, changed: [String], invalidated: [String] = []
    ) {
        let core = self.core
        loop.submit {
            core.emitPropertiesChanged(path: path, interface: interface, names: changed, invalidated: invalidated)
        }
    }
}
