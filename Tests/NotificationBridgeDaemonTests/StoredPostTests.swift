import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridge
import NotificationBridgeAPI
import NotificationStore
import Testing

/// The daemon keeps in memory only what selects a scheduled notification (who posted it, its category and thread);
/// the rest is read back from the state database when it fires or is listed. These tests hold what a user sees of
/// that: what a restart restores selects and guards as before, and a row that cannot be read back costs that one
/// notification, said in the log, and nothing else.
@Suite("scheduled notifications read back from the state")
struct StoredPostTests {
    @Test("after a restart, category and thread filters select a pending notification and RemoveCategory is refused")
    func selectionAfterRestart() async throws {
        try await SchedulingTests.withSetup { setup in
            var daemon = try await setup.startDaemon()
            defer { daemon.stop() }
            try await setup.gdbus(
                BridgeMethod.registerCategory.name, "'org.example.reminder'", "[{'id': <'done'>, 'title': <'Done'>}]",
                "{}")
            let inAnHour = Int(Date().timeIntervalSince1970) + 3600
            let id = try postedID(
                try await setup.gdbus(
                    BridgeMethod.post.name,
                    "{'title': <'Water the plants'>, 'app-name': <'Garden'>, 'category': <'org.example.reminder'>, "
                        + "'thread': <'balcony'>, 'fire-date': <int64 \(inAnHour)>}"))
            daemon = try await PendingListingTests.restart(daemon, setup)

            let byCategory = try await setup.gdbus(
                BridgeMethod.listPending.name, "{'app-name': <'Garden'>, 'category': <'org.example.reminder'>}")
            #expect(byCategory.contains("'title': <'Water the plants'>"), "\(byCategory)")
            let byThread = try await setup.gdbus(
                BridgeMethod.listPending.name, "{'app-name': <'Garden'>, 'thread': <'balcony'>}")
            #expect(byThread.contains("'id': <'\(id)'>"), "\(byThread)")
            #expect(
                try await setup.gdbus(BridgeMethod.listPending.name, "{'app-name': <'Garden'>, 'thread': <'kitchen'>}")
                    == "(@aa{sv} [],)")

            let refusal = await #expect(throws: DBusFailure.self) {
                try await setup.client.call(
                    destination: BridgeAPI.busName, path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName,
                    method: BridgeMethod.removeCategory.name, arguments: [.string("org.example.reminder")],
                    timeout: .seconds(20))
            }
            let message = refusal?.message ?? ""
            #expect(message.contains("used by 1 scheduled notification"), "\(message)")
            #expect(message.contains(id), "\(message)")

            let withdrawn = try await setup.gdbus(
                BridgeMethod.withdrawAll.name, "{'app-name': <'Garden'>, 'thread': <'balcony'>}")
            #expect(withdrawn == "(['\(id)'],)")
        }
    }

    @Test("a pending notification whose stored content cannot be read is dropped when due, and named in the log")
    func unreadableContentIsDropped() async throws {
        try await SchedulingTests.withSetup { setup in
            var daemon = try await setup.startDaemon()
            defer { daemon.stop() }
            let damaged = try postedID(
                try await setup.gdbus(
                    BridgeMethod.post.name,
                    "{'title': <'Damaged'>, 'app-name': <'Clock'>, 'urgency': <'critical'>, 'in': <2.0>}"))
            daemon.signal(SIGTERM)
            _ = await daemon.wait(within: .seconds(10))

            // The urgency's name is read only when the notification is shown: an unknown one leaves the row's frames
            // whole, so the restart reads what selects it, and the rest fails when it is due.
            let path = setup.stateDirectory.appendingPathComponent("state.db").path
            let database = try SQLiteConnection(path: path)
            let rows = try database.prepare("SELECT body FROM pending WHERE id = ?1")
            try rows.bind(damaged, at: 1)
            #expect(try rows.step())
            let body = rows.blob(at: 0)
            rows.reset()
            let name = Array("critical".utf8)
            var changed = body
            for start in 0...(body.count - name.count) where Array(body[start..<(start + name.count)]) == name {
                changed[start + 5] = UInt8(ascii: "X")
            }
            #expect(changed != body, "the row holds no urgency name")
            let update = try database.prepare("UPDATE pending SET body = ?1 WHERE id = ?2")
            try update.bind(changed, at: 1)
            try update.bind(damaged, at: 2)
            try update.run()
            database.close()

            daemon = try await setup.startDaemon()
            try await withTimeout(waitingFor: "the daemon to log the row it cannot read") {
                while !setup.logText.contains("cannot read a scheduled notification back") {
                    try await Task.sleep(for: .milliseconds(50))
                }
            }
            let log = setup.logText
            #expect(log.contains(damaged), "\(log)")
            // The restart read what selects it: the database was not taken for damaged and moved aside.
            let files = try FileManager.default.contentsOfDirectory(atPath: setup.stateDirectory.path)
            #expect(!files.contains { $0.contains(".corrupt-") }, "\(files)")
            #expect(try await setup.gdbus(BridgeMethod.listPending.name, "{'app-name': <'Clock'>}") == "(@aa{sv} [],)")

            // The daemon serves, and the damaged notification was never shown: the next one the server gets is this.
            _ = try postedID(
                try await setup.gdbus(BridgeMethod.post.name, "{'title': <'After'>, 'app-name': <'Clock'>}"))
            #expect(try await setup.nextNotification().summary == "After")
        }
    }
}
