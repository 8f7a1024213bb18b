import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationServerKit
import Testing

extension Reliability {
    /// The history of ended notifications across a `kill -9` of the daemon.
    @Suite("the history across a kill")
    struct HistoryCrashTests {
        /// Records the action and user info it was given in `<its folder>/answer`.
        static let recorder = """
            #!/bin/sh
            out="$(dirname "$0")/answer"
            printf '%s %s' "$NOTIFICATION_ACTION" "$NOTIFICATION_USER_INFO" > "$out.partial"
            mv "$out.partial" "$out"
            """

        /// Posts the invoice notification whose Pay action runs ``recorder``; `extra` adds to the post.
        static func postInvoice(_ rig: DaemonRig, _ extra: [String: DBusValue] = [:]) async throws -> String {
            let command = rig.directory.appendingPathComponent("pay")
            try ExecutableScript.write(recorder, to: command.path)
            return try await rig.post(
                [
                    PostKeys.title.name: .string("Invoice due"), PostKeys.appName.name: .string("Billing"),
                    PostKeys.actions.name: plainActions("pay"), PostKeys.exec.name: .strings([command.path]),
                    PostKeys.userInfo.name: .string(#"{"invoice":"2024-17"}"#),
                ].merging(extra) { $1 })
        }

        /// Answers `id` later with Pay, and checks that its command got the action and the invoice's user info.
        static func actAndExpectPaid(_ id: String, _ rig: DaemonRig) async throws {
            try await rig.call(BridgeMethod.act.name, [.string(id), .string("pay"), .vardict([:])])
            let answer = rig.directory.appendingPathComponent("answer")
            try await withTimeout(.seconds(20), waitingFor: "the command to record its answer") {
                while !FileManager.default.fileExists(atPath: answer.path) {
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
            #expect(try String(contentsOf: answer, encoding: .utf8) == #"pay {"invoice":"2024-17"}"#)
        }

        /// The history entry of `id`, once the daemon lists it.
        static func entry(_ id: String, in rig: DaemonRig) async throws -> [String: DBusValue] {
            try await withTimeout(.seconds(20), waitingFor: "notification \(id) in the history") {
                while true {
                    let listed = try await rig.listed(
                        BridgeMethod.listHistory.name, [FilterKeys.appName.name: .string("Billing")])
                    if let entry = listed.first(where: { $0[ListedKeys.id.name]?.unwrappedVariant == .string(id) }) {
                        return entry
                    }
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
        }

        @Test("an expired notification is kept after kill -9, and act reaches its command after the restart")
        func expiredSurvivesKill() async throws {
            try await DaemonRig.with { rig in
                let first = try await rig.startDaemon()
                let id = try await Self.postInvoice(rig)
                let shown = try await rig.nextNotification()
                #expect(try await rig.server.expire(id: shown.id))
                // Listed once it is written: from then on a kill cannot take it away.
                _ = try await Self.entry(id, in: rig)
                first.signal(SIGKILL)
                let status = await first.wait(within: .seconds(10))
                #expect(status == 128 + SIGKILL, "the daemon was not killed; log: \(rig.logText)")

                let second = try await rig.startDaemon()
                defer { second.stop() }
                let kept = try await Self.entry(id, in: rig)
                #expect(kept[HistoryKeys.ending.name]?.unwrappedVariant == .string("expired"), "\(kept)")
                #expect(kept[HistoryKeys.answerable.name]?.unwrappedVariant == .boolean(true), "\(kept)")
                try await Self.actAndExpectPaid(id, rig)
            }
        }

        @Test(
            "a notification that left the screen with its server while the daemon was down is kept as server-gone, and answered"
        )
        func serverGoneWhileDaemonDown() async throws {
            try await DaemonRig.with { rig in
                let first = try await rig.startDaemon()
                let id = try await Self.postInvoice(rig, [PostKeys.timeout.name: .int32(0)])
                _ = try await rig.nextNotification()
                first.signal(SIGKILL)
                _ = await first.wait(within: .seconds(10))
                // The server goes while the daemon is down, and does not come back.
                let gone = try await rig.client.nameOwnerChanges(of: "org.freedesktop.Notifications")
                await rig.serverConnection.close()
                try await withTimeout(waitingFor: "the server's name to go") {
                    for await owner in gone where owner == nil { return }
                }

                let second = try await rig.startDaemon()
                defer { second.stop() }
                let kept = try await Self.entry(id, in: rig)
                #expect(kept[HistoryKeys.ending.name]?.unwrappedVariant == .string("server-gone"), "\(kept)")
                try await Self.actAndExpectPaid(id, rig)
            }
        }
    }
}
