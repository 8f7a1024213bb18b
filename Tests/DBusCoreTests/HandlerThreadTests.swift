import DBusCore
import DBusTestSupport
import Glibc
import Testing

/// Where the handlers of exported methods run: on Swift's default executor, unless the connection was asked to run
/// them on its own thread, where a handler still awaits calls of its own without holding the connection up.
@Suite struct HandlerThreadTests {
    private static let path: DBusObjectPath = "/org/example/Where"
    private static let interface = "org.example.Where"

    private static func currentThread() -> UInt64 { UInt64(pthread_self()) }

    /// `Thread` answers the thread its handler ran on; `AskTheBus` makes a call of its own on the same connection
    /// before it answers, from that same handler.
    private static func serve(on connection: DBusConnection) async throws {
        try await connection.export(
            [
                DBusInterface(
                    interface,
                    methods: [
                        DBusMethod("Thread", outputs: [.init("tid", "t")]) { _ in [.uint64(currentThread())] },
                        DBusMethod.deferred("DeferredThread", outputs: [.init("tid", "t")]) { call in
                            call.reply([.uint64(currentThread())])
                        },
                        DBusMethod("AskTheBus", outputs: [.init("machine", "s")]) { _ in
                            try await connection.call(
                                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                interface: "org.freedesktop.DBus", method: "GetId")
                        },
                    ])
            ], at: path)
    }

    private static func thread(_ method: String, of server: DBusConnection, from client: DBusConnection)
        async throws -> UInt64
    {
        try await client.call(destination: server.uniqueName, path: path, interface: interface, method: method)
            .decode(UInt64.self)
    }

    @Test func handlersRunOnTheConnectionsThreadWhenAskedTo() async throws {
        try await withPrivateBus { bus in
            let server = try await DBusConnection.connect(to: .address(bus.address), handlersRunOn: .connection)
            let client = try await bus.connect()
            try await Self.serve(on: server)
            let connectionThread = await withTaskExecutorPreference(server.executor) { Self.currentThread() }

            #expect(try await Self.thread("Thread", of: server, from: client) == connectionThread)
            #expect(try await Self.thread("DeferredThread", of: server, from: client) == connectionThread)
            // The handler's own call is sent and answered on the thread it runs on.
            let id = try await client.call(
                destination: server.uniqueName, path: Self.path, interface: Self.interface, method: "AskTheBus")
            #expect(try id.decode(String.self).count == 32)
            await client.close()
            await server.close()
        }
    }

    @Test func handlersRunOffTheConnectionsThreadByDefault() async throws {
        try await withPrivateBus { bus in
            let server = try await bus.connect()
            let client = try await bus.connect()
            try await Self.serve(on: server)
            let connectionThread = await withTaskExecutorPreference(server.executor) { Self.currentThread() }

            #expect(try await Self.thread("Thread", of: server, from: client) != connectionThread)
            #expect(try await Self.thread("DeferredThread", of: server, from: client) != connectionThread)
            await client.close()
            await server.close()
        }
    }
}
