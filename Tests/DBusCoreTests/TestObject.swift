import DBusCore
import DBusTestSupport
import Synchronization

/// An object the tests export and call: methods of many argument types, a method that fails on request, a signal,
/// and properties backed by state the test can read and change.
final class TestObject: Sendable {
    static let busName = "org.example.TestService"
    static let path: DBusObjectPath = "/org/example/Test"
    static let interfaceName = "org.example.Test"

    /// The arguments of `Basics`, one of each basic type, in order.
    static let basicsSignature = "ybnqiuxtdsog"
    /// The arguments of `Containers`.
    static let containersSignature = "asa{sv}(is)vaai"

    /// The connection that serves the object.
    let connection: DBusConnection
    /// Calls to `Hold`, which are never answered unless a test answers them.
    let held = HeldCalls()
    private let state = StateBox()

    struct State: Sendable {
        var name = "initial"
        var tags: [String] = ["a", "b"]
        var version: UInt32 = 3
    }

    private init(connection: DBusConnection) {
        self.connection = connection
    }

    /// Connects to `bus`, exports the object at ``path`` and takes ``busName``.
    ///
    /// The object serves as long as it lives: dropping it closes its connection.
    static func serve(on bus: PrivateBus) async throws -> TestObject {
        let object = TestObject(connection: try await bus.connect())
        try await object.connection.export([object.interface], at: path)
        _ = try await object.connection.requestName(busName)
        return object
    }

    /// Serves an object on `bus` and runs `body` with it and a second connection to call it from; both connections
    /// stay open until `body` ends.
    static func withObject<T>(
        on bus: PrivateBus, _ body: (_ object: TestObject, _ client: DBusConnection) async throws -> T
    ) async throws -> T {
        let object = try await serve(on: bus)
        let client = try await bus.connect()
        func closeBoth() async throws {
            try await awaitWithin(waitingFor: "the test's connections to close") {
                await client.close()
                await object.connection.close()
            }
        }
        do {
            let result = try await body(object, client)
            try await closeBoth()
            return result
        } catch {
            try? await closeBoth()
            throw error
        }
    }

    /// The property state, shared with the handlers without making them hold on to the object.
    private final class StateBox: Sendable {
        private let mutex = Mutex(State())
        func withLock<T: Sendable>(_ body: (inout State) throws -> T) rethrows -> T {
            try mutex.withLock { try body(&$0) }
        }
    }

    /// The current property state.
    var current: State { state.withLock { $0 } }

    /// Changes the property state directly, as the program behind the object would.
    func update(_ change: (inout State) -> Void) {
        state.withLock { change(&$0) }
    }

    /// Calls a method of the object from `client`.
    static func call(
        _ method: String, _ arguments: [DBusValue] = [], from client: DBusConnection,
        interface: String? = interfaceName, path: DBusObjectPath = path, timeout: Duration = .seconds(10)
    ) async throws -> [DBusValue] {
        try await client.call(
            destination: busName, path: path, interface: interface, method: method, arguments: arguments,
            timeout: timeout)
    }

    /// The interface description: what is routed is what introspection shows.
    var interface: DBusInterface {
        DBusInterface(
            Self.interfaceName,
            methods: [
                DBusMethod("Echo", inputs: [.init("text", "s")], outputs: [.init("text", "s")]) { call in
                    call.arguments
                },
                DBusMethod(
                    "Basics", inputs: Self.arguments(Self.basicsSignature),
                    outputs: Self.arguments(Self.basicsSignature)
                ) { call in call.arguments },
                DBusMethod(
                    "Containers", inputs: Self.arguments(Self.containersSignature),
                    outputs: Self.arguments(Self.containersSignature)
                ) { call in call.arguments },
                DBusMethod("Fail", inputs: [.init("name", "s"), .init("message", "s")]) { call in
                    let (name, message) = try call.arguments.decode(String.self, String.self)
                    throw DBusFailure(name: name, message: message)
                },
                DBusMethod("Crash") { _ in throw UnexpectedError() },
                held.method("Hold", outputs: [.init("answer", "s")]),
            ],
            signals: [DBusSignalDescription("Changed", arguments: [.init("what", "s")])],
            properties: [
                .readWrite(
                    "Name", "s", get: { [state] in .string(state.withLock(\.name)) },
                    set: { [state] value in
                        let name = try String(dbusValue: value)
                        guard !name.isEmpty else {
                            throw DBusFailure(name: DBusFailure.Name.invalidArgs, message: "the name cannot be empty")
                        }
                        state.withLock { $0.name = name }
                    }),
                .readWrite(
                    "Tags", "as", get: { [state] in state.withLock(\.tags).dbusValue },
                    set: { [state] value in
                        let tags = try [String](dbusValue: value)
                        state.withLock { $0.tags = tags }
                    }),
                .readOnly("Version", "u") { [state] in .uint32(state.withLock(\.version)) },
            ]
        )
    }

    /// One described argument per complete type of `signature`, named `arg0`, `arg1`, ….
    private static func arguments(_ signature: String) -> [DBusArgumentDescription] {
        (try? DBusSignature(signature))?.completeTypes.enumerated().map { .init("arg\($0.offset)", $0.element) } ?? []
    }

    private struct UnexpectedError: Error, CustomStringConvertible {
        var description: String { "something unexpected happened" }
    }
}

/// Starts a private bus, serves a ``TestObject`` on it, and runs `body` with the bus, the object and a second
/// connection to call it from.
func withTestObject<T>(
    _ body: (_ bus: PrivateBus, _ object: TestObject, _ client: DBusConnection) async throws -> T
) async throws -> T {
    try await withPrivateBus { bus in
        try await TestObject.withObject(on: bus) { object, client in try await body(bus, object, client) }
    }
}
