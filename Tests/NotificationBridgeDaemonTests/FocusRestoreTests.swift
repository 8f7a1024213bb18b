import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationServerKit
import NotificationStore
import Testing

@testable import NotificationBridgeDaemon

/// Focus modes as the daemon keeps them: those saved in its state directory are in force from its start.
@Suite("Focus modes kept by the daemon")
struct FocusRestoreTests {
    /// The titles `ListPending` lists as held for `app`.
    static func heldTitles(_ fixture: DaemonFixture, app: String) async throws -> [String] {
        let listed = try await fixture.call(
            BridgeMethod.listPending.name, [.vardict([FilterKeys.appName.name: .string(app)])])
        guard case .array(_, let items)? = listed.first else { return [] }
        return items.compactMap { item -> String? in
            guard let entries = WireEntries(item), entries[ListedKeys.held] == true else { return nil }
            return entries[PostKeys.title]
        }
    }

    static func notification(_ title: String, app: String) -> [String: DBusValue] {
        [PostKeys.title.name: .string(title), PostKeys.appName.name: .string(app)]
    }

    @Test("a mode on for 1h in the saved state is on after a start within that hour: it holds what it does not name")
    func forAnHourAfterStart() async throws {
        try await withPrivateBus { bus in
            // The state the last run left: "work", letting the Doorbell through, on by hand for an hour.
            var state = FocusState()
            state.save(try FocusMode(name: "work", breakthrough: FocusBreakthrough(apps: ["Doorbell"])))
            try state.turnOn("work", until: Date().addingTimeInterval(3600), now: Date())
            let store = try DaemonStore(directory: bus.directory.appendingPathComponent("test/state").path)
            try store.apply(.saveFocus(try FocusRow(id: DaemonCore.focusRowID, state)))
            store.close()

            let serverConnection = try await bus.connect()
            let server = NotificationServer()
            let events = server.events()
            try await server.start(on: serverConnection, profile: NotificationServerProfile.fullFeatured)
            let result = await outcome {
                try await DaemonFixture.run(
                    bus: bus, server: server, events: events,
                    doNotDisturb: DesktopDoNotDisturbTests.FedSwitch(on: false)
                ) { fixture in
                    _ = try await fixture.post(Self.notification("New mail", app: "Mail"))
                    #expect(try await Self.heldTitles(fixture, app: "Mail") == ["New mail"])
                    _ = try await fixture.post(Self.notification("Someone at the door", app: "Doorbell"))
                    #expect(
                        try await fixture.nextNotification().summary == "Someone at the door",
                        "the app the mode names passes, and the mail is not shown before it")
                }
            }
            await server.stop()
            await serverConnection.close()
            try result.get()
        }
    }
}
