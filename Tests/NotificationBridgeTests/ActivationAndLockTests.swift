import DBusCore
import DBusTestSupport
import Foundation
import NotificationModel
import NotificationServerKit
import Synchronization
import Testing

@testable import NotificationBridge

/// Foreground actions raise the app with the server's token; actions that need authentication wait for unlock.
@Suite struct ActivationAndLockTests {
    @Test func foregroundActionRaisesTheAppWithTheToken() async throws {
        try await BridgeFixture.with(.fullFeatured) { fixture in
            let app = try await fixture.bus.connect()
            let activations = AsyncStream.makeStream(of: [DBusValue].self)
            try await app.export(
                [
                    DBusInterface(
                        "org.freedesktop.Application",
                        methods: [
                            DBusMethod("Activate", inputs: [.init("platform_data", "a{sv}")]) { call in
                                activations.continuation.yield(call.arguments)
                                return []
                            },
                            DBusMethod(
                                "ActivateAction",
                                inputs: [
                                    .init("action_name", "s"), .init("parameter", "av"),
                                    .init("platform_data", "a{sv}"),
                                ]
                            ) { _ in [] },
                            DBusMethod("Open", inputs: [.init("uris", "as"), .init("platform_data", "a{sv}")]) { _ in []
                            },
                        ])
                ], at: "/org/example/TestApp")
            _ = try await app.requestName("org.example.TestApp")

            var content = BridgeFixture.content()
            content.desktopEntry = "org.example.TestApp"
            let (id, served) = try await fixture.post(content)
            #expect(served.desktopEntry == "org.example.TestApp")
            try await fixture.server.invokeAction(id: served.id, key: "open", activationToken: "token-123")
            let response = try await fixture.nextResponse()
            #expect(response.notificationID == id)
            #expect(response.actionID == "open")
            #expect(response.activationToken == "token-123")
            let arguments = try await activations.stream.first(waitingFor: "the app to be activated")
            let platformData = try #require(arguments.first?.stringKeyedEntries)
            #expect(platformData["activation-token"]?.unwrappedVariant == .string("token-123"))
            #expect(platformData["desktop-startup-id"]?.unwrappedVariant == .string("token-123"))
            await app.close()
        }
    }

    @Test func backgroundActionRaisesNothing() async throws {
        try await BridgeFixture.with(.fullFeatured) { fixture in
            let app = try await fixture.bus.connect()
            let activated = Mutex(false)
            try await app.export(
                [
                    DBusInterface(
                        "org.freedesktop.Application",
                        methods: [
                            DBusMethod("Activate", inputs: [.init("platform_data", "a{sv}")]) { _ in
                                activated.withLock { $0 = true }
                                return []
                            }
                        ])
                ], at: "/org/example/TestApp")
            _ = try await app.requestName("org.example.TestApp")
            var content = BridgeFixture.content()
            content.desktopEntry = "org.example.TestApp"
            let (_, served) = try await fixture.post(content)
            try await fixture.server.invokeAction(id: served.id, key: "read", activationToken: "token-9")
            let response = try await fixture.nextResponse()
            #expect(response.actionID == "read")
            #expect(response.activationToken == nil)
            // The handler runs after any activation, so by now an activation would have been recorded.
            #expect(!activated.withLock { $0 })
            await app.close()
        }
    }

    @Test func authenticatedActionWaitsForTheScreenToUnlock() async throws {
        try await withPrivateBus { bus in
            // A screen saver that says the session is locked until told otherwise.
            let screenSaver = try await bus.connect()
            let locked = Mutex(true)
            try await screenSaver.export(
                [
                    DBusInterface(
                        "org.freedesktop.ScreenSaver",
                        methods: [
                            DBusMethod("GetActive", outputs: [.init("active", "b")]) { _ in
                                [.boolean(locked.withLock { $0 })]
                            }
                        ],
                        signals: [DBusSignalDescription("ActiveChanged", arguments: [.init("active", "b")])])
                ], at: "/org/freedesktop/ScreenSaver")
            _ = try await screenSaver.requestName("org.freedesktop.ScreenSaver")

            let serverConnection = try await bus.connect()
            let server = NotificationServer()
            let events = server.events()
            try await server.start(on: serverConnection, profile: NotificationServerProfile.dunst.withoutDefaultExpiry)
            async let serverRunning: Void = server.run()
            let connection = try await bus.connect()
            let center = try await DesktopNotificationCenter(
                connection: connection, systemConnection: nil,
                BridgeFixture.configuration(on: bus, promptCommand: ["/bin/false"]))
            try await center.running {
                #expect(center.lockSource == .screenSaver)
                try await center.setNotificationCategories([BridgeFixture.message()])

                let post = { (title: String) async throws -> (String, UInt32) in
                    let id = try await center.post(BridgeFixture.content(title: title))
                    let served = try await withTimeout(waitingFor: "the server to show it") {
                        for await case .notified(let served) in events { return served }
                        throw TestSupportError("events ended")
                    }
                    return (id, served.id)
                }
                let (deleteID, deleteServerID) = try await post("Ann")
                let (readID, readServerID) = try await post("Bob")
                // Delete needs authentication: held while locked. Mark as Read does not: delivered at once.
                try await server.invokeAction(id: deleteServerID, key: "delete")
                try await server.invokeAction(id: readServerID, key: "read")
                let first = try await center.responses.first(waitingFor: "the unauthenticated response")
                #expect(first.notificationID == readID)

                locked.withLock { $0 = false }
                try screenSaver.emit(
                    path: "/org/freedesktop/ScreenSaver", interface: "org.freedesktop.ScreenSaver",
                    member: "ActiveChanged", arguments: [.boolean(false)])
                let second = try await center.responses.first(waitingFor: "the held response after unlock")
                #expect(second.notificationID == deleteID)
                #expect(second.actionID == "delete")
            }
            await serverConnection.close()
            await serverRunning
            for connection in [connection, serverConnection, screenSaver] { await connection.close() }
        }
    }
}
