import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationServerKit
import Synchronization
import Testing

/// Answering later goes through the same lock gate as a click.
@Suite("Acting later on a locked session")
struct HistoryLockTests {
    @Test("an answer to an action that needs an unlocked session runs only once the session is unlocked")
    func actWaitsForUnlock() async throws {
        try await withPrivateBus { bus in
            let active = Mutex(true)
            let saverConnection = try await bus.connect()
            try await saverConnection.export(
                [
                    DBusInterface(
                        "org.freedesktop.ScreenSaver",
                        methods: [
                            DBusMethod("GetActive", outputs: [.init("active", "b")]) { _ in
                                [.boolean(active.withLock { $0 })]
                            }
                        ],
                        signals: [DBusSignalDescription("ActiveChanged", arguments: [.init("active", "b")])])
                ], at: "/org/freedesktop/ScreenSaver")
            _ = try await saverConnection.requestName("org.freedesktop.ScreenSaver")
            let serverConnection = try await bus.connect()
            let server = NotificationServer()
            let events = server.events()
            try await server.start(
                on: serverConnection, profile: NotificationServerProfile.fullFeatured.withoutDefaultExpiry)
            async let serverRunning: Void = server.run()
            let result = await outcome {
                try await DaemonFixture.run(bus: bus, server: server, events: events) { fixture in
                    let answer = try ExecRouteTests.installRecorder(in: fixture)
                    let command = fixture.directory.appendingPathComponent("bin/answer-ann").path
                    let id = try await fixture.post([
                        PostKeys.title.name: .string("Invoice due"), PostKeys.appName.name: .string("Billing"),
                        PostKeys.actions.name: ActionList.plain(id: "pay", activation: "foreground"),
                        PostKeys.exec.name: .strings([command]),
                    ])
                    let shown = try await fixture.nextNotification()
                    #expect(try await server.expire(id: shown.id))
                    _ = try await HistoryTests.ended(id, app: "Billing", in: fixture)

                    try await HistoryTests.act(fixture, id, "pay")
                    // Held while locked: a moment later the command has still not run.
                    try await Task.sleep(for: .milliseconds(300))
                    #expect(!FileManager.default.fileExists(atPath: answer.path), "the command ran while locked")

                    active.withLock { $0 = false }
                    try saverConnection.emit(
                        path: "/org/freedesktop/ScreenSaver", interface: "org.freedesktop.ScreenSaver",
                        member: "ActiveChanged", arguments: [.boolean(false)])
                    let read = try await ExecRouteTests.waitForAnswer(answer)
                    #expect(try read("action") == "pay")
                }
            }
            await serverConnection.close()
            await serverRunning
            await saverConnection.close()
            try result.get()
        }
    }
}
