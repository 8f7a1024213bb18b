import DBusCore
import DBusTestSupport
import Testing

@Suite struct SmokeTests {
    @Test func connectsAndCallsTheBus() async throws {
        try await withPrivateBus { bus in
            let connection = try await bus.connect()
            #expect(connection.uniqueName.hasPrefix(":"))
            let reply = try await connection.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                method: "GetId")
            #expect(try reply.decode(String.self).count == 32)
            await connection.close()
            #expect(!connection.isConnected)
        }
    }
}
