import DBusCore
import DBusTestSupport
import Testing

/// Puts `arguments` into a signal in wire form and reads them back, as a peer would receive them.
func roundTrip(_ arguments: [DBusValue]) throws -> (signature: String, arguments: [DBusValue]) {
    let bytes = try DBusWire.encodeSignal(
        path: "/org/example/Wire", interface: "org.example.Wire", member: "Values", arguments: arguments)
    return try DBusWire.decodeArguments(from: bytes)
}

/// Runs `gdbus` with `arguments` as a client of `bus`, bounded in time.
func gdbus(_ arguments: [String], on bus: PrivateBus) async throws -> ProcessResult {
    try await ProcessRunner.run(["gdbus"] + arguments, environment: bus.environment, timeout: .seconds(60))
}

/// Calls a method with `gdbus call`, passing each argument in GVariant text form, and returns what gdbus printed.
func gdbusCall(
    on bus: PrivateBus, destination: String, path: DBusObjectPath, method: String, _ arguments: [String] = []
) async throws -> ProcessResult {
    // "--" keeps an argument such as "-16" from being read as an option.
    try await gdbus(
        ["call", "--session", "--dest", destination, "--object-path", path.rawValue, "--method", method, "--"]
            + arguments,
        on: bus)
}

/// The names the message bus itself answers to.
enum MessageBus {
    static let name = "org.freedesktop.DBus"
    static let path: DBusObjectPath = "/org/freedesktop/DBus"

    /// The match rules `connection` has registered with the bus, as `org.freedesktop.DBus.Debug.Stats` reports them.
    static func matchRules(of connection: DBusConnection, askingWith client: DBusConnection) async throws -> [String] {
        let reply = try await client.call(
            destination: name, path: path, interface: "org.freedesktop.DBus.Debug.Stats", method: "GetAllMatchRules")
        let rules = try reply.decode([String: [String]].self)
        return rules[connection.uniqueName] ?? []
    }
}

extension DBusConnection {
    /// Returns once the bus has handled everything this connection sent before: a round trip to the bus, which
    /// handles one connection's messages in order.
    func flush() async throws {
        _ = try await nameHasOwner(MessageBus.name)
    }
}

/// Awaits `operation`, run in a task of its own, no longer than `limit`.
///
/// Unlike `withTimeout`, which waits for its operation to honour cancellation, this returns on time even when
/// `operation` cannot be cancelled (awaiting another task's result, or the end of a connection); the operation is then
/// cancelled and left to finish on its own.
///
/// - Throws: `TestSupportError` saying what was awaited when the limit passes, or what `operation` threw.
func awaitWithin<T: Sendable>(
    _ limit: Duration = .seconds(10), waitingFor what: String, _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let (outcome, continuation) = AsyncStream.makeStream(of: Result<T, any Error>.self)
    let task = Task {
        do {
            continuation.yield(.success(try await operation()))
        } catch {
            continuation.yield(.failure(error))
        }
        continuation.finish()
    }
    defer { task.cancel() }
    return try await outcome.first(within: limit, waitingFor: what).get()
}

extension AsyncStream where Element: Sendable {
    /// The next `count` elements, waiting no longer than `limit` for all of them.
    ///
    /// - Throws: `TestSupportError` saying how many arrived when the stream ends or the limit passes first.
    func collect(_ count: Int, within limit: Duration = .seconds(10), waitingFor what: String) async throws
        -> [Element]
    {
        let stream = self
        let collected = Collected<Element>()
        do {
            return try await withTimeout(limit, waitingFor: "\(count) \(what)") {
                var iterator = stream.makeAsyncIterator()
                while await collected.count < count {
                    guard let element = await iterator.next() else {
                        throw TestSupportError("the stream ended after \(await collected.count) of \(count) \(what)")
                    }
                    await collected.append(element)
                }
                return await collected.elements
            }
        } catch let error as TestSupportError {
            throw TestSupportError("\(error.description) (\(await collected.count) arrived)")
        }
    }
}

/// What ``AsyncStream/collect(_:within:waitingFor:)`` has received so far, readable after a timeout.
private actor Collected<Element: Sendable> {
    var elements: [Element] = []
    var count: Int { elements.count }
    func append(_ element: Element) { elements.append(element) }
}

/// Holds method calls a deferred handler keeps, so a test decides when (or whether) they are answered.
final class HeldCalls: Sendable {
    /// The calls, in the order they arrived.
    let arrivals: AsyncStream<DBusMethodCall>
    private let continuation: AsyncStream<DBusMethodCall>.Continuation

    init() {
        (arrivals, continuation) = AsyncStream.makeStream(of: DBusMethodCall.self, bufferingPolicy: .unbounded)
    }

    /// A deferred method that hands every call to ``arrivals`` and leaves it unanswered.
    func method(
        _ name: String, inputs: [DBusArgumentDescription] = [], outputs: [DBusArgumentDescription] = []
    ) -> DBusMethod {
        .deferred(name, inputs: inputs, outputs: outputs) { [continuation] call in
            continuation.yield(call)
        }
    }
}
