import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationServerKit
import Testing

/// The route of a notification still showing is never dropped to make room, however many show: after a restart of
/// the daemon, a click on the oldest one still reaches its handler.
@Suite("Routes of many showing notifications across a daemon restart")
struct ShowingRoutesRestartTests {
    /// Newer notifications, all still showing (more than the 512 routes the daemon once kept).
    static let newer = 600
    /// Posts each lane keeps in flight.
    static let window = 8

    @Test("600 newer notifications showing and a restart: a click on the first runs its exec command")
    func oldestShowingRouteSurvives() async throws {
        try await SchedulingTests.withSetup(.plasma) { setup in
            try FileManager.default.createDirectory(at: setup.stateHome, withIntermediateDirectories: true)
            let answer = setup.stateHome.appendingPathComponent("answer")
            let script = setup.stateHome.appendingPathComponent("record")
            try ExecutableScript.write(
                """
                #!/bin/sh
                printf '%s %s' "$NOTIFICATION_ID" "$NOTIFICATION_ACTION" > "\(answer.path).partial"
                mv "\(answer.path).partial" "\(answer.path)"
                """, to: script.path)
            let first = try await setup.startDaemon()
            let client = setup.client
            func post(_ title: String) async throws -> String {
                try await client.call(
                    destination: BridgeAPI.busName, path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName,
                    method: BridgeMethod.post.name,
                    arguments: [
                        .vardict([
                            PostKeys.title.name: .string(title), PostKeys.appName.name: .string("Backup"),
                            // Never expiring: a loaded machine may take a while over 600 posts and a restart.
                            PostKeys.timeout.name: .int32(0),
                            PostKeys.actions.name: ActionList.plain(id: "open", activation: "background"),
                            PostKeys.exec.name: .strings([script.path]),
                        ])
                    ], timeout: .seconds(30)
                ).decode(String.self)
            }
            let id = try await post("The first")
            let shown = try await setup.nextNotification()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for lane in 0..<Self.window {
                    group.addTask {
                        for index in stride(from: lane, to: Self.newer, by: Self.window) {
                            _ = try await post("Newer \(index)")
                        }
                    }
                }
                try await group.waitForAll()
            }
            first.signal(SIGKILL)
            #expect(await first.wait(within: .seconds(10)) == 128 + SIGKILL)
            let second = try await setup.startDaemon()
            defer { second.stop() }
            // Answered once the routes of the last run are restored: the first is listed as showing.
            let listed = try await client.call(
                destination: BridgeAPI.busName, path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName,
                method: BridgeMethod.listDelivered.name,
                arguments: [.vardict([FilterKeys.appName.name: .string("Backup")])],
                timeout: .seconds(60))
            #expect("\(listed)".contains(id), "the first notification is listed as showing after the restart")

            try await setup.server.invokeAction(id: shown.id, key: "open")
            try await withTimeout(
                .seconds(30), waitingFor: "the first notification's command to run; daemon log: \(setup.logText)"
            ) {
                while !FileManager.default.fileExists(atPath: answer.path) {
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
            #expect(try String(contentsOf: answer, encoding: .utf8) == "\(id) open")
        }
    }
}
