internal import CDBus
import Synchronization

/// The state of one connection that lives on its loop thread: the libdbus connection, calls awaiting replies, signal
/// subscriptions, exported objects.
///
/// `@unchecked Sendable` because it is only ever touched on the loop thread: ``DBusConnection`` reaches it solely
/// through jobs submitted to the ``EventLoop``, and libdbus calls its callbacks from inside calls made on that thread.
final class ConnectionCore: @unchecked Sendable {
    let connection: OpaquePointer
    let loop: EventLoop
    let uniqueName: String
    let status: ConnectionStatus
    /// Whether unix file descriptors can go both ways: the transport is a unix socket and both ends agreed to pass
    /// them when the connection was authenticated.
    let canPassFileDescriptors: Bool

    /// Signal subscriptions in the order they were made (their ids increase), which is the order each signal is
    /// handed to them.
    var subscriptions: [(id: UInt64, subscription: Subscription)] = []
    var nextSubscriptionID: UInt64 = 1
    /// Owners of well-known names that subscriptions use as sender, with how many subscriptions use each.
    var trackedOwners: [String: (owner: String?, users: Int)] = [:]
    var objects: [DBusObjectPath: [DBusInterface]] = [:]
    /// Calls sent and not yet answered.
    var waitingCalls: [ObjectIdentifier: PendingCallBox] = [:]
    let incomingCalls: AsyncStream<IncomingCall>.Continuation
    private var serving = false
    private let incomingStream: AsyncStream<IncomingCall>

    struct Subscription {
        let rule: DBusMatchRule
        let deliver: (DBusSignal) -> Void
        let finish: () -> Void
    }

    struct IncomingCall: Sendable {
        let call: DBusMethodCall
        let handler: DBusMethod.Handler
    }

    init(connection: OpaquePointer, loop: EventLoop, status: ConnectionStatus) {
        self.connection = connection
        self.loop = loop
        self.status = status
        self.uniqueName = dbus_bus_get_unique_name(connection).map { String(cString: $0) } ?? ""
        self.canPassFileDescriptors = dbus_connection_can_send_type(connection, CDBUS_TYPE_UNIX_FD) != 0
        (incomingStream, incomingCalls) = AsyncStream.makeStream(of: IncomingCall.self, bufferingPolicy: .unbounded)
        dbus_connection_add_filter(connection, Self.filterFunction, Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    /// One function for adding and removing the filter: libdbus finds the filter to remove by its function pointer.
    private static let filterFunction: DBusHandleMessageFunction = { _, message, data in
        Unmanaged<ConnectionCore>.fromOpaque(data!).takeUnretainedValue().filter(message!)
    }

    /// Releases the libdbus connection; called on the loop thread as the loop ends.
    func shutdown() {
        dbus_connection_remove_filter(connection, Self.filterFunction, Unmanaged.passUnretained(self).toOpaque())
        finishEverything()
        dbus_connection_close(connection)
        dbus_connection_unref(connection)
    }

    private func finishEverything() {
        let ending = subscriptions
        subscriptions.removeAll()
        for entry in ending { entry.subscription.finish() }
        // libdbus leaves calls waiting when the connection is closed from this side: fail them, or their callers wait
        // forever.
        let waiting = waitingCalls.values
        waitingCalls.removeAll()
        for box in waiting {
            endCall(box, with: DBusFailure.disconnected("the connection closed before the reply came"))
        }
        incomingCalls.finish()
        status.markDisconnected()
    }

    /// Starts the one task that runs method handlers in arrival order, the first time an object is exported.
    func startServingIfNeeded() {
        guard !serving else { return }
        serving = true
        let stream = incomingStream
        Task {
            for await incoming in stream {
                switch incoming.handler {
                case .returning(let handler):
                    do {
                        incoming.call.reply(try await handler(incoming.call))
                    } catch let failure as DBusFailure {
                        incoming.call.fail(failure)
                    } catch {
                        incoming.call.fail(name: DBusFailure.Name.failed, message: String(describing: error))
                    }
                case .deferred(let handler):
                    await handler(incoming.call)
                }
            }
        }
    }

    // MARK: Sending

    /// Sends `message` and takes over its reference.
    func sendAndRelease(_ message: OpaquePointer) {
        dbus_connection_send(connection, message, nil)
        dbus_message_unref(message)
    }

    static func withOptionalCString<R>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
        guard let text else { return body(nil) }
        return text.withCString { body($0) }
    }

    /// A method call carrying `arguments`; the caller owns it. `validated` skips the checks of the arguments when the
    /// caller already made them (``MessageCodec/append(_:to:validated:)``).
    ///
    /// - Throws: ``DBusFailure``: the arguments' check, or `NoMemory`.
    static func makeMethodCall(
        destination: String?, path: DBusObjectPath, interface: String?, member: String, arguments: [DBusValue],
        validated: Bool = false
    ) throws(DBusFailure) -> OpaquePointer {
        try makeMessage(
            CDBUS_MESSAGE_TYPE_METHOD_CALL, destination: destination, path: path, interface: interface, member: member,
            arguments: arguments, validated: validated)
    }

    /// A signal carrying `arguments`, to `destination` alone or (`nil`) to whoever listens; the caller owns it.
    ///
    /// - Throws: ``DBusFailure``: the arguments' check, or `NoMemory`.
    static func makeSignal(
        path: DBusObjectPath, interface: String, member: String, destination: String?, arguments: [DBusValue],
        validated: Bool = false
    ) throws(DBusFailure) -> OpaquePointer {
        let message = try makeMessage(
            CDBUS_MESSAGE_TYPE_SIGNAL, destination: destination, path: path, interface: interface, member: member,
            arguments: arguments, validated: validated)
        // As dbus_message_new_signal() makes one: nothing answers a signal.
        dbus_message_set_no_reply(message, 1)
        return message
    }

    /// A message of `type` whose header fields are written after its body. libdbus writes the body's signature into
    /// the header once for each argument appended at the top level, and then walks every field of the header twice;
    /// with the path, interface, member and destination set afterwards, each of those walks finds the signature alone.
    /// A `Notify` of eight arguments is built with half the instructions so (about 120,000 fewer), the same message
    /// with its header fields in another order, which the specification leaves free.
    private static func makeMessage(
        _ type: Int32, destination: String?, path: DBusObjectPath, interface: String?, member: String,
        arguments: [DBusValue], validated: Bool
    ) throws(DBusFailure) -> OpaquePointer {
        let noMemory = DBusFailure(name: DBusFailure.Name.noMemory, message: "cannot create message")
        guard let message = dbus_message_new(type) else { throw noMemory }
        do throws(DBusFailure) {
            try MessageCodec.append(arguments, to: message, validated: validated)
            let headed =
                dbus_message_set_path(message, path.rawValue) != 0
                && withOptionalCString(interface) { dbus_message_set_interface(message, $0) } != 0
                && dbus_message_set_member(message, member) != 0
                && withOptionalCString(destination) { dbus_message_set_destination(message, $0) } != 0
            guard headed else { throw noMemory }
        } catch {
            dbus_message_unref(message)
            throw error
        }
        return message
    }

    /// Sends the answer to an incoming call.
    func sendAnswer(_ answer: DBusMethodCall.Answer, serial: UInt32, to destination: String) {
        guard let message = Self.makeAnswer(answer, serial: serial, to: destination) else { return }
        sendAndRelease(message)
    }

    /// The message answering an incoming call, or `nil` when libdbus has no memory for it. Values that cannot be
    /// marshalled make an error answer instead.
    ///
    /// A message belongs to no connection until it is sent, so any thread may build one.
    static func makeAnswer(_ answer: DBusMethodCall.Answer, serial: UInt32, to destination: String) -> OpaquePointer? {
        let message: OpaquePointer?
        switch answer {
        case .values(let values):
            message = dbus_message_new(CDBUS_MESSAGE_TYPE_METHOD_RETURN)
            if let message {
                do {
                    try MessageCodec.append(values, to: message)
                } catch {
                    dbus_message_unref(message)
                    return makeAnswer(.failure(error), serial: serial, to: destination)
                }
            }
        case .failure(let failure):
            message = makeError(failure)
        case .message(let built):
            return built.message
        }
        guard let message else { return nil }
        dbus_message_set_reply_serial(message, serial)
        dbus_message_set_no_reply(message, 1)
        if !destination.isEmpty { dbus_message_set_destination(message, destination) }
        return message
    }

    static func makeError(_ failure: DBusFailure) -> OpaquePointer? {
        let name = DBusNames.isValidInterface(failure.name) ? failure.name : DBusFailure.Name.failed
        guard let message = dbus_message_new(CDBUS_MESSAGE_TYPE_ERROR) else { return nil }
        dbus_message_set_error_name(message, name)
        let text =
            failure.message.utf8.contains(0) ? String(failure.message.split(separator: "\0").joined()) : failure.message
        try? MessageCodec.append([.string(text)], to: message)
        return message
    }

    func replyError(to message: OpaquePointer, _ failure: DBusFailure) {
        guard dbus_message_get_no_reply(message) == 0 else { return }
        let sender = dbus_message_get_sender(message).map { String(cString: $0) } ?? ""
        sendAnswer(.failure(failure), serial: dbus_message_get_serial(message), to: sender)
    }

    // MARK: Receiving

    private func filter(_ message: OpaquePointer) -> DBusHandlerResult {
        switch dbus_message_get_type(message) {
        case CDBUS_MESSAGE_TYPE_SIGNAL:
            handleSignal(message)
            return DBUS_HANDLER_RESULT_HANDLED
        case CDBUS_MESSAGE_TYPE_METHOD_CALL:
            handleMethodCall(message)
            return DBUS_HANDLER_RESULT_HANDLED
        default:
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }
    }

    static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }

    /// libdbus's `error` as a ``DBusFailure``; `name` and `message` where libdbus set none.
    static func failure(
        _ error: DBusError, name: String = DBusFailure.Name.failed, message: String
    ) -> DBusFailure {
        DBusFailure(name: string(error.name) ?? name, message: string(error.message) ?? message)
    }

    private func handleSignal(_ message: OpaquePointer) {
        let interface = Self.string(dbus_message_get_interface(message)) ?? ""
        let member = Self.string(dbus_message_get_member(message)) ?? ""
        let path = Self.string(dbus_message_get_path(message)) ?? "/"
        if interface == "org.freedesktop.DBus.Local" && member == "Disconnected" {
            finishEverything()
            loop.requestStop()
            return
        }
        guard !subscriptions.isEmpty || !trackedOwners.isEmpty,
            let arguments = try? MessageCodec.values(of: message)
        else { return }
        let signal = DBusSignal(
            sender: Self.string(dbus_message_get_sender(message)) ?? "",
            path: DBusObjectPath(unchecked: path), interface: interface, member: member, arguments: arguments,
            destination: Self.string(dbus_message_get_destination(message))
        )
        if signal.sender == "org.freedesktop.DBus", member == "NameOwnerChanged",
            case .string(let name)? = arguments.first, trackedOwners[name] != nil,
            arguments.count == 3, case .string(let newOwner) = arguments[2]
        {
            trackedOwners[name]?.owner = newOwner.isEmpty ? nil : newOwner
        }
        for (_, subscription) in subscriptions {
            let owner = subscription.rule.sender.flatMap { trackedOwners[$0]?.owner }
            if subscription.rule.matches(signal, senderOwner: owner) {
                subscription.deliver(signal)
            }
        }
    }
}

/// What the public connection object can read without going through the loop.
final class ConnectionStatus: Sendable {
    private struct State {
        var connected = true
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    var isConnected: Bool { state.withLock { $0.connected } }

    func markDisconnected() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.connected = false
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func waitUntilDisconnected() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state -> Bool in
                guard state.connected else { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }
}
