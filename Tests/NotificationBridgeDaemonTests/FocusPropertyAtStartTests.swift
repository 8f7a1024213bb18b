import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationServerKit
import NotificationStore
import Testing

@testable import NotificationBridgeDaemon

/// `ActiveFocus` read the moment the daemon has taken its name after a restart, before it has read its saved state: a
/// panel that asks then learns the mode that is on, not that none is.
@Suite("ActiveFocus right after a start")
struct FocusPropertyAtStartTests {
    @Test("read while the daemon waits for its state, ActiveFocus gives the saved mode once the state is read")
    func activeFocusWaitsForTheSavedState() async throws {
        try await withPrivateBus { bus in
            let directory = bus.directory.appendingPathComponent("test/state").path
            let store = try DaemonStore(directory: directory)
            let saved = try FocusRestoreTests.work(until: Date().addingTimeInterval(3600))
            try store.apply(.saveFocus(try FocusRow(id: DaemonCore.focusRowID, saved)))
            store.close()
            // Held here, the state folder's lock keeps the daemon between taking its name and reading its state, as a
            // slow disk or a daemon still stopping would.
            let lock = try await StateDirectoryLock.acquire(directory: directory, within: .seconds(5))

            let serverConnection = try await bus.connect()
            let server = NotificationServer()
            let events = server.events()
            try await server.start(on: serverConnection, profile: NotificationServerProfile.fullFeatured)
            async let serverRunning: Void = server.run()
            let result = await outcome {
                try await DaemonFixture.run(
                    bus: bus, server: server, events: events,
                    doNotDisturb: DesktopDoNotDisturbTests.FedSwitch(on: false)
                ) { fixture in
                    let reading = Task { try await FocusRestoreTests.activeFocus(fixture) }
                    // Time for the Get to reach the daemon while it cannot have read its state: before the change this
                    // test guards, it was answered at once, with no mode.
                    try await Task.sleep(for: .milliseconds(300))
                    lock.release()
                    let focus = try await withTimeout(waitingFor: "the ActiveFocus property") {
                        try await reading.value
                    }
                    #expect(focus?.name == "work", "the mode the saved state has on, not \(String(describing: focus))")
                }
            }
            lock.release()
            await serverConnection.close()
            await serverRunning
            try result.get()
        }
    }
}
