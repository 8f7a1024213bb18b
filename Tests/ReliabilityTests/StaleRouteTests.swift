import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationServerKit
import Testing

extension Reliability {
    /// The notification server restarts while the daemon is stopped, and its new instance gives the id of a
    /// notification the daemon had shown to another program's notification: the routes kept on disk belong to the
    /// old instance and must never act on it.
    @Suite("routes of a server that restarted while the daemon was stopped")
    struct StaleRouteTests {
        /// Creates `<its folder>/<first argument>`.
        static let marker = """
            #!/bin/sh
            touch "$(dirname "$0")/$1"
            """

        @Test("a click on another program's notification with a reused id runs no old command, and Withdraw leaves it")
        func reusedServerID() async throws {
            var profile = NotificationServerProfile.fullFeatured
            // Signals reach every connection, so a restarted daemon hears the click on the other program's one.
            profile.signalDelivery = .broadcast
            // Nothing closes a notification but CloseNotification, so a closure is the daemon's doing.
            profile.closeAfterAction = nil
            try await DaemonRig.with(profile) { rig in
                let script = rig.directory.appendingPathComponent("mark")
                try ExecutableScript.write(Self.marker, to: script.path)
                func posted(_ title: String, marking name: String) async throws -> String {
                    try await rig.post([
                        PostKeys.title.name: .string(title), PostKeys.actions.name: plainActions("ok"),
                        PostKeys.exec.name: .strings([script.path, name]), PostKeys.timeout.name: .int32(0),
                    ])
                }
                let first = try await rig.startDaemon()
                let oldID = try await posted("Old", marking: "old-ran")
                let shown = try await rig.nextNotification()
                #expect(first.stop() == 0, "log: \(rig.logText)")

                // The server dies, a new instance starts, and another program posts to it first.
                let gone = try await rig.client.nameOwnerChanges(of: "org.freedesktop.Notifications")
                await rig.serverConnection.close()
                try await withTimeout(waitingFor: "the old server's name to go") {
                    for await owner in gone where owner == nil { return }
                }
                let replacement = NotificationServer()
                let events = replacement.events()
                let connection = try await rig.bus.connect()
                let other = try await rig.bus.connect()
                try await replacement.start(on: connection, profile: profile)
                // Ends with this scope: the replacement leaves the bus; the connections go with the bus.
                async let _: Void = replacement.run()
                let reply = try await other.call(
                    destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                    interface: "org.freedesktop.Notifications", method: "Notify",
                    arguments: [
                        .string("Other"), .uint32(0), .string(""), .string("Another program's"), .string(""),
                        .strings(["ok", "OK"]), .vardict([:]), .int32(0),
                    ])
                let otherID = try reply.decode(UInt32.self)
                try #require(otherID == shown.id, "the new server did not reuse the id; the test needs it to")

                let second = try await rig.startDaemon(["--log-level", "debug"])
                defer { second.stop() }
                // Answered once the daemon has restored what it kept.
                try await rig.call(BridgeMethod.listCategories.name)
                try await replacement.invokeAction(id: otherID, key: "ok")
                // A notification posted now, clicked: once its command ran, the daemon has handled the click before.
                _ = try await posted("New", marking: "new-ran")
                let control = try await Self.next("New", in: events).notification
                try await replacement.invokeAction(id: control.id, key: "ok")
                let newMarker = rig.directory.appendingPathComponent("new-ran").path
                try await withTimeout(.seconds(20), waitingFor: "the new notification's command to run") {
                    while !FileManager.default.fileExists(atPath: newMarker) {
                        try await Task.sleep(for: .milliseconds(20))
                    }
                }
                #expect(
                    !FileManager.default.fileExists(atPath: rig.directory.appendingPathComponent("old-ran").path),
                    "the old notification's command ran for another program's notification")

                let withdrawn = await outcome { try await rig.call(BridgeMethod.withdraw.name, [.string(oldID)]) }
                if case .failure(let error) = withdrawn {
                    #expect(error.dbusName == BridgeError.unknownNotification.rawValue, "\(error)")
                }
                // Once a notification posted after the Withdraw is shown, a close it asked for has come first.
                _ = try await posted("Barrier", marking: "barrier-ran")
                let closed = try await Self.next("Barrier", in: events).closed
                #expect(!closed.contains(otherID), "the other program's notification was closed")
                #expect(await replacement.notification(id: otherID) != nil, "the other program's notification is gone")
                #expect(rig.logText.contains("restarted"), "\(rig.logText)")
            }
        }

        /// Waits for the notification titled `title`, with the ids of the notifications closed before it.
        static func next(
            _ title: String, in events: AsyncStream<NotificationServerEvent>
        ) async throws -> (notification: ServedNotification, closed: [UInt32]) {
            try await withTimeout(waitingFor: "\(title) on the new server") {
                var closed: [UInt32] = []
                for await event in events {
                    if case .closed(let notification, _) = event { closed.append(notification.id) }
                    if case .notified(let notification) = event, notification.summary == title {
                        return (notification, closed)
                    }
                }
                throw TestSupportError("the new server's events ended")
            }
        }
    }
}
