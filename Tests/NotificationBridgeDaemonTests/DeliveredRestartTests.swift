import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationBridgeDaemon
import NotificationServerKit
import Testing

/// Responses to notifications shown before a restart of the `notification-bridged` process, on a server that keeps
/// them (`persistence`) and broadcasts its signals (Plasma's behaviour), so that the new daemon hears the user.
@Suite("Routes of shown notifications across a daemon restart")
struct DeliveredRestartTests {
    typealias Setup = SchedulingTests.Setup

    /// Stops the daemon with `kill -9`, as a crash would, and starts it again.
    private static func crashAndRestart(_ daemon: ChildProcess, _ setup: Setup) async throws -> ChildProcess {
        daemon.signal(SIGKILL)
        #expect(await daemon.wait(within: .seconds(10)) == 128 + SIGKILL)
        return try await setup.startDaemon()
    }

    @Test("after kill -9 and a restart, an action on a notification shown before reaches its exec command")
    func execAfterRestart() async throws {
        try await SchedulingTests.withSetup(.plasma) { setup in
            let answer = setup.stateHome.appendingPathComponent("answer")
            let script = setup.stateHome.appendingPathComponent("record")
            try FileManager.default.createDirectory(at: setup.stateHome, withIntermediateDirectories: true)
            try ExecutableScript.write(
                """
                #!/bin/sh
                printf '%s %s' "$NOTIFICATION_ID" "$NOTIFICATION_ACTION" > "\(answer.path).partial"
                mv "\(answer.path).partial" "\(answer.path)"
                """, to: script.path)

            let first = try await setup.startDaemon()
            let id = try postedID(
                try await setup.gdbus(
                    BridgeMethod.post.name,
                    "{'title': <'Backup'>, 'app-name': <'Backup'>, 'timeout': <0>, "
                        + "'actions': <[{'id': <'open'>, 'title': <'Open'>, "
                        + "'activation': <'background'>}]>, 'exec': <['\(script.path)']>}"))
            let shown = try await setup.nextNotification()
            let second = try await Self.crashAndRestart(first, setup)
            defer { second.stop() }
            // The new daemon lists it as shown, since the server still shows it.
            #expect(
                try await setup.gdbus(BridgeMethod.listDelivered.name, "{'app-name': <'Backup'>}").contains(
                    "'id': <'\(id)'>"))

            try await setup.server.invokeAction(id: shown.id, key: "open")
            try await withTimeout(waitingFor: "the command to record the response; daemon log: \(setup.logText)") {
                while !FileManager.default.fileExists(atPath: answer.path) {
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
            #expect(try String(contentsOf: answer, encoding: .utf8) == "\(id) open")
        }
    }

    @Test("after a restart, a response for a poster that is gone goes to the connection attached as its app")
    func attachedAppAfterRestart() async throws {
        try await SchedulingTests.withSetup(.plasma) { setup in
            let first = try await setup.startDaemon()
            let poster = try await setup.bus.connect()
            let id = try await poster.call(
                destination: BridgeAPI.busName, path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName,
                method: BridgeMethod.post.name,
                arguments: [
                    .vardict([
                        PostKeys.title.name: .string("Mail from Ann"), PostKeys.appName.name: .string("Mail"),
                        PostKeys.defaultAction.name: .string("Open"),
                        // Never expiring: a loaded machine may take longer than Plasma's 5 s for the restart.
                        PostKeys.timeout.name: .int32(0),
                    ])
                ],
                timeout: .seconds(20)
            ).decode(String.self)
            let shown = try await setup.nextNotification()
            await poster.close()
            let second = try await Self.crashAndRestart(first, setup)
            defer { second.stop() }

            let app = try await setup.bus.connect()
            let responded = try await app.signals(
                matching: DBusMatchRule(
                    sender: BridgeAPI.busName, path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName,
                    member: BridgeSignal.responded.name))
            _ = try await app.call(
                destination: BridgeAPI.busName, path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName,
                method: BridgeMethod.attach.name, arguments: [.string("Mail"), .vardict([:])], timeout: .seconds(20))
            try await setup.server.invokeAction(id: shown.id, key: "default")
            let signal = try await responded.first(waitingFor: "Responded after the restart")
            #expect(signal.arguments.prefix(2) == [.string(id), .string("default")])
            await app.close()
        }
    }

    @Test("a notification closed before the restart is forgotten: the new daemon does not list it")
    func closedIsForgotten() async throws {
        try await SchedulingTests.withSetup(.plasma) { setup in
            let first = try await setup.startDaemon()
            let id = try postedID(
                try await setup.gdbus(BridgeMethod.post.name, "{'title': <'Gone'>, 'app-name': <'Old'>}"))
            _ = try await setup.nextNotification()
            try await setup.gdbus(BridgeMethod.withdraw.name, "'\(id)'")
            let second = try await Self.crashAndRestart(first, setup)
            defer { second.stop() }
            #expect(try await setup.gdbus(BridgeMethod.listDelivered.name, "{'app-name': <'Old'>}") == "(@aa{sv} [],)")
        }
    }

    @Test("a notification posted again to a restarted server is found under its new id after a daemon restart")
    func serverRestartThenDaemonRestart() async throws {
        try await SchedulingTests.withSetup(.plasma) { setup in
            let first = try await setup.startDaemon()
            // A notification gone before the server restarts, so that the kept one's id differs on the two servers.
            let gone = try postedID(
                try await setup.gdbus(BridgeMethod.post.name, "{'title': <'Gone'>, 'app-name': <'Keep'>}"))
            _ = try await setup.nextNotification()
            try await setup.gdbus(BridgeMethod.withdraw.name, "'\(gone)'")
            let id = try postedID(
                try await setup.gdbus(
                    BridgeMethod.post.name, "{'title': <'Kept'>, 'app-name': <'Keep'>, 'default-action': <'Open'>}"))
            let before = try await setup.nextNotification()

            // The server restarts: the daemon posts the notification again, and gets a new server id for it.
            // The server's process exits.
            await setup.serverConnection.close()
            let newConnection = try await setup.bus.connect()
            let newServer = NotificationServer()
            let newEvents = newServer.events()
            try await newServer.start(on: newConnection, profile: NotificationServerProfile.plasma.withoutDefaultExpiry)
            async let newServerRunning: Void = newServer.run()
            let reposted = try await withTimeout(waitingFor: "the daemon to post again to the new server") {
                for await event in newEvents {
                    if case .notified(let notification) = event { return notification }
                }
                throw TestSupportError("the new server stopped")
            }
            #expect(reposted.summary == "Kept")
            try #require(reposted.id != before.id, "the new server reused the id; the test would prove nothing")

            // The state is written as the repost is seen; the second daemon must adopt the new id, so respond to it.
            try await withTimeout(waitingFor: "the new server id in the daemon's state") {
                while setup.storedServerID(of: id) != reposted.id {
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
            let second = try await Self.crashAndRestart(first, setup)
            defer { second.stop() }
            let app = try await setup.bus.connect()
            let responded = try await app.signals(
                matching: DBusMatchRule(
                    sender: BridgeAPI.busName, path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName,
                    member: BridgeSignal.responded.name))
            _ = try await app.call(
                destination: BridgeAPI.busName, path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName,
                method: BridgeMethod.attach.name, arguments: [.string("Keep"), .vardict([:])], timeout: .seconds(20))
            try await newServer.invokeAction(id: reposted.id, key: "default")
            let signal = try await responded.first(waitingFor: "Responded after both restarts")
            #expect(signal.arguments.first == .string(id))
            await app.close()
            await newConnection.close()
            await newServerRunning
        }
    }
}
