import DBusCore
import DBusTestSupport
import NotificationBridgeAPI
import NotificationServerKit
import Testing

/// The lock-screen setting while the session is locked (a screen saver on the session bus says so): shown, shown
/// with a neutral line, or not shown.
@Suite("Notification settings on a locked screen")
struct LockScreenSettingsTests {
    @Test("locked: private shows the app's name and a neutral line, hide shows nothing, show shows the text")
    func locked() async throws {
        try await withPrivateBus { bus in
            let saverConnection = try await bus.connect()
            try await saverConnection.export(
                [
                    DBusInterface(
                        "org.freedesktop.ScreenSaver",
                        methods: [DBusMethod("GetActive", outputs: [.init("active", "b")]) { _ in [.boolean(true)] }],
                        signals: [DBusSignalDescription("ActiveChanged", arguments: [.init("active", "b")])])
                ], at: "/org/freedesktop/ScreenSaver")
            _ = try await saverConnection.requestName("org.freedesktop.ScreenSaver")
            let serverConnection = try await bus.connect()
            let server = NotificationServer()
            let events = server.events()
            try await server.start(on: serverConnection, profile: .fullFeatured)
            async let serverRunning: Void = server.run()
            let result = await outcome {
                try await DaemonFixture.run(bus: bus, server: server, events: events) { fixture in
                    _ = try await fixture.gdbus(BridgeMethod.setSettings.name, "Mail", "{'lock-screen': <'private'>}")
                    _ = try await fixture.gdbus(BridgeMethod.setSettings.name, "Diary", "{'lock-screen': <'hide'>}")
                    _ = try await fixture.post(Self.notification("Mail", "Ann", "Lunch at noon?"))
                    let neutral = try await fixture.nextNotification()
                    #expect(neutral.summary == "Mail")
                    #expect(neutral.body == "New notification")

                    let hidden = await outcome { try await fixture.post(Self.notification("Diary", "Dear diary", "…")) }
                    let failure = try #require(hidden.failure as? DBusFailure)
                    #expect(failure.name == BridgeError.notAllowed.rawValue)
                    #expect(failure.message.contains("locked"), "\(failure.message)")

                    _ = try await fixture.post(Self.notification("Backup", "Backup finished", "42 files"))
                    let plain = try await fixture.nextNotification()
                    #expect(plain.summary == "Backup finished" && plain.body == "42 files")
                }
            }
            await serverConnection.close()
            await serverRunning
            await saverConnection.close()
            try result.get()
        }
    }

    static func notification(_ app: String, _ title: String, _ body: String) -> [String: DBusValue] {
        [PostKeys.appName.name: .string(app), PostKeys.title.name: .string(title), PostKeys.body.name: .string(body)]
    }
}
