import DBusCore
import DBusTestSupport
import Synchronization
import Testing

/// An interface whose properties are not ready when its name is taken (``DBusInterface/propertiesReady``): a `Get` or
/// `GetAll` that comes meanwhile waits, and reads what the service holds once it is ready.
@Suite struct PropertiesReadyTests {
    static let interfaceName = "org.example.Restoring"
    static let path: DBusObjectPath = "/org/example/Restoring"
    static let busName = "org.example.Restoring"

    /// A service that takes its name first and restores its `Mode` later: `entered` hears of each read that waits,
    /// `open` lets them go on.
    final class Service: Sendable {
        let mode = Mutex("unknown")
        let entered: AsyncStream<Void>
        let open: AsyncStream<Void>.Continuation

        init(entered: AsyncStream<Void>, open: AsyncStream<Void>.Continuation) {
            self.entered = entered
            self.open = open
        }
    }

    static func withService(_ body: (Service, DBusConnection) async throws -> Void) async throws {
        try await withPrivateBus { bus in
            let connection = try await bus.connect()
            let client = try await bus.connect()
            let (entered, enter) = AsyncStream<Void>.makeStream()
            let (opened, open) = AsyncStream<Void>.makeStream()
            let service = Service(entered: entered, open: open)
            let interface = DBusInterface(
                interfaceName,
                properties: [.readOnly("Mode", "s") { [service] in .string(service.mode.withLock { $0 }) }],
                propertiesReady: {
                    enter.yield()
                    for await _ in opened { return }
                })
            try await connection.export([interface], at: path)
            _ = try await connection.requestName(busName)
            defer { open.finish() }
            do {
                try await body(service, client)
            } catch {
                await client.close()
                await connection.close()
                throw error
            }
            await client.close()
            await connection.close()
        }
    }

    static func read(_ method: String, _ arguments: [DBusValue], from client: DBusConnection) async throws
        -> [DBusValue]
    {
        try await client.call(
            destination: busName, path: path, interface: "org.freedesktop.DBus.Properties", method: method,
            arguments: arguments)
    }

    @Test(
        "a read that comes before the service is ready gives the value it has once ready", arguments: ["Get", "GetAll"])
    func readWaitsUntilReady(_ method: String) async throws {
        try await Self.withService { service, client in
            let arguments: [DBusValue] =
                method == "Get" ? [.string(Self.interfaceName), .string("Mode")] : [.string(Self.interfaceName)]
            let reading = Task { try await Self.read(method, arguments, from: client) }
            try await withTimeout(waitingFor: "the \(method) to wait for the service to be ready") {
                for await _ in service.entered { return }
            }
            service.mode.withLock { $0 = "restored" }
            service.open.yield()
            let reply = try await withTimeout(waitingFor: "the answer to \(method)") { try await reading.value }
            let expected: DBusValue =
                method == "Get" ? .variant(.string("restored")) : .vardict(["Mode": .string("restored")])
            #expect(reply == [expected])
        }
    }
}
