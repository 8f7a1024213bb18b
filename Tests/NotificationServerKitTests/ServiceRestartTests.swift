import DBusCore
import DBusTestSupport
import NotificationServerKit
import Testing

/// GNOME Shell's notification service restarting alone: the notifications stay, their signals reach nobody until a
/// client replaces them through the new service.
@Suite struct ServiceRestartTests {
    @Test func aNotificationFromTheOldServiceAnswersOnlyOnceReplaced() async throws {
        try await afterServiceRestart(posting: ["old", "Old"]) { server, client, signals, id in
            #expect(await server.notification(id: id) != nil, "the shell keeps showing it")
            // The user acts on the copy the old service posted: nobody hears. Then the client replaces it.
            try await server.invokeAction(id: id, key: "old")
            #expect(await server.notification(id: id) == nil)
            let again = try await Self.notify(from: client, replacing: 0, actions: ["new", "New"])
            let kept = try await Self.notify(from: client, replacing: id, actions: ["x", "X"])
            #expect(kept != id, "a closed id is not replaced")
            try await server.invokeAction(id: again, key: "new")
            let first = try await signals.first(waitingFor: "a signal from the new service")
            #expect(first.member == "ActionInvoked")
            #expect(first.arguments == [.uint32(again), .string("new")])
        }
    }

    @Test func aCopyClosedThroughTheNewServiceGoesSilentlyAndANewPostAnswers() async throws {
        try await afterServiceRestart(posting: ["mute", "Mute"]) { server, client, signals, id in
            _ = try await client.call(
                destination: NotificationServer.busName, path: NotificationServer.objectPath,
                interface: NotificationServer.interfaceName, method: "CloseNotification", arguments: [.uint32(id)])
            #expect(await server.notifications.isEmpty)
            let again = try await Self.notify(from: client, replacing: 0, actions: ["mute", "Mute"])
            try await server.invokeAction(id: again, key: "mute")
            let first = try await signals.first(waitingFor: "ActionInvoked from the new service")
            #expect(first.arguments == [.uint32(again), .string("mute")], "the old copy's close was heard")
        }
    }

    /// GNOME Shell 43 rebuilds a replaced notification's banner before adding its actions: no button is left.
    @Test func aReplacementLosesItsButtons() async throws {
        try await withPrivateBus { bus in
            let connection = try await bus.connect()
            let server = NotificationServer()
            try await server.start(on: connection, profile: .gnomeShell43)
            async let serverRunning: Void = server.run()
            let client = try await bus.connect()
            let id = try await Self.notify(from: client, replacing: 0, actions: ["mute", "Mute"])
            #expect(try await Self.notify(from: client, replacing: id, actions: ["mute", "Mute"]) == id)
            await #expect(throws: NotificationServerError.self) { try await server.invokeAction(id: id, key: "mute") }
            await connection.close()
            await serverRunning
            await client.close()
        }
    }

    @Test func aServerWithoutASeparateServiceRefuses() async throws {
        try await withPrivateBus { bus in
            let connection = try await bus.connect()
            let server = NotificationServer()
            try await server.start(on: connection, profile: .dunst)
            async let serverRunning: Void = server.run()
            let other = try await bus.connect()
            await #expect(throws: NotificationServerError.noSeparateService(server: "dunst")) {
                try await server.restartService(on: other)
            }
            await connection.close()
            await serverRunning
            await other.close()
        }
    }

    /// Starts a GNOME Shell 43 server, posts one notification with `actions` from a client, restarts the server's
    /// notification service and closes the old one's connection, then hands the server, the client, the client's
    /// stream of the server's signals and the notification's id to `body`.
    private func afterServiceRestart(
        posting actions: [String],
        _ body: (NotificationServer, DBusConnection, AsyncStream<DBusSignal>, UInt32) async throws -> Void
    ) async throws {
        try await withPrivateBus { bus in
            let oldService = try await bus.connect()
            let server = NotificationServer()
            try await server.start(on: oldService, profile: .gnomeShell43)
            async let serverRunning: Void = server.run()
            let client = try await bus.connect()
            let signals = try await client.signals(matching: DBusMatchRule(path: NotificationServer.objectPath))
            let id = try await Self.notify(from: client, replacing: 0, actions: actions)
            let newService = try await bus.connect()
            try await server.restartService(on: newService)
            await oldService.close()
            try await body(server, client, signals, id)
            // The server serves on the new service's connection now: its end is the server's.
            await newService.close()
            await serverRunning
            await client.close()
        }
    }

    private static func notify(
        from connection: DBusConnection, replacing replacesID: UInt32, actions: [String]
    ) async throws -> UInt32 {
        let reply = try await connection.call(
            destination: NotificationServer.busName, path: NotificationServer.objectPath,
            interface: NotificationServer.interfaceName, method: "Notify",
            arguments: [
                .string("test-app"), .uint32(replacesID), .string(""), .string("Eve"), .string(""),
                .strings(actions), .vardict([:]), .int32(0),
            ], timeout: .seconds(10))
        return try reply.decode(UInt32.self)
    }
}
