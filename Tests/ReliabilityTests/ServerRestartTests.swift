import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationBridgeDaemon
import NotificationServerKit
import Testing

extension Reliability {
    /// The notification server dies while notifications posted through the daemon are showing, and another one starts.
    @Suite("the notification server restarts")
    struct ServerRestartTests {
        @Test("outstanding notifications are posted again to the new server, and their responses reach their handlers")
        func restartWhileOutstanding() async throws {
            try await DaemonRig.with { rig in
                let daemon = try await rig.startDaemon(["--log-level", "debug"])
                defer { daemon.stop() }
                let responded = try await rig.client.signals(
                    matching: DBusMatchRule(
                        sender: BridgeAPI.busName, interface: BridgeAPI.interfaceName,
                        member: BridgeSignal.responded.name))

                var ids: [String: String] = [:]  // id → title
                for index in 0..<5 {
                    let title = "Outstanding \(index)"
                    ids[
                        try await rig.post([
                            PostKeys.title.name: .string(title), PostKeys.actions.name: plainActions("ok"),
                            PostKeys.timeout.name: .int32(0),
                        ])] = title
                }
                let posted = ids
                for _ in 0..<5 { _ = try await rig.nextNotification() }
                let waited = try #require(posted.first { $0.value == "Outstanding 0" }?.key)
                let waiter = try await rig.bus.connect()
                defer { Task { await waiter.close() } }
                async let waitedResponse = outcome {
                    try await rig.call(BridgeMethod.waitForResponse.name, [.string(waited)], from: waiter)
                }
                // The call is held by the daemon once a round trip behind it has come back.
                try await rig.call(BridgeMethod.listCategories.name, from: waiter)

                // The server dies: its connection goes without a word, as a killed process's does.
                let gone = try await rig.client.nameOwnerChanges(of: "org.freedesktop.Notifications")
                await rig.serverConnection.close()
                try await withTimeout(waitingFor: "the old server's name to go") {
                    for await owner in gone where owner == nil { return }
                }

                let replacement = NotificationServer()
                let events = replacement.events()
                let connection = try await rig.bus.connect()
                try await replacement.start(on: connection, profile: .fullFeatured)
                // Ends with this scope: the replacement leaves the bus; the connection goes with the bus.
                async let _: Void = replacement.run()
                // Title → the notification as the new server shows it.
                let shown = try await withTimeout(.seconds(20), waitingFor: "all five to be posted again") {
                    var shown: [String: ServedNotification] = [:]
                    for await case .notified(let notification) in events {
                        shown[notification.summary] = notification
                        if shown.count == 5 { return shown }
                    }
                    throw TestSupportError("the new server's events ended")
                }
                #expect(Set(shown.keys) == Set(posted.values))
                #expect(shown.values.allSatisfy { $0.actions.map(\.key).contains("ok") })
                #expect(rig.logText.contains("notification server restarted"), "\(rig.logText)")

                for notification in shown.values { try await replacement.invokeAction(id: notification.id, key: "ok") }
                let answered = try await withTimeout(.seconds(20), waitingFor: "a response for each of the five") {
                    var ids: Set<String> = []
                    for await signal in responded {
                        guard case .string(let id)? = signal.arguments.first else { continue }
                        #expect(signal.arguments.dropFirst().first == .string("ok"))
                        ids.insert(id)
                        if ids.count == posted.count { return ids }
                    }
                    throw TestSupportError("the Responded stream ended")
                }
                #expect(answered == Set(posted.keys))
                let waitedReply = try await waitedResponse.get()
                #expect(waitedReply.first == .string("ok"))

                // The daemon lives on and posts to the new server.
                #expect(daemon.poll() == nil, "the daemon exited; log: \(rig.logText)")
                _ = try await rig.post([PostKeys.title.name: .string("After the restart")])
                let after = try await withTimeout(waitingFor: "a new notification on the new server") {
                    for await case .notified(let notification) in events { return notification }
                    throw TestSupportError("the new server's events ended")
                }
                #expect(after.summary == "After the restart")
            }
        }
    }
}
