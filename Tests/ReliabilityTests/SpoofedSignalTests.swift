import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationBridgeDaemon
import NotificationServerKit
import Testing

extension Reliability {
    /// `ActionInvoked`, `NotificationReplied` and `ActivationToken` from a connection that is not the notification
    /// server, broadcast and sent straight to the daemon, naming ids the daemon posted: the daemon ignores them.
    @Suite("spoofed server signals")
    struct SpoofedSignalTests {
        /// A command that records each run in a folder of its own under `answers/`, named by id and process id.
        static let recorder = """
            #!/bin/sh
            out="$(dirname "$0")/answers/$NOTIFICATION_ID.$$"
            mkdir -p "$out.partial"
            printf '%s' "$NOTIFICATION_ACTION" > "$out.partial/action"
            printf '%s' "${NOTIFICATION_TEXT-unset}" > "$out.partial/text"
            printf '%s' "${XDG_ACTIVATION_TOKEN-unset}" > "$out.partial/token"
            mv "$out.partial" "$out"
            """

        /// Emits the three signals a server sends about `serverID`, broadcast and to `destination`.
        static func spoof(_ serverID: UInt32, from rogue: DBusConnection, to destination: String) throws {
            let signals: [(String, [DBusValue])] = [
                ("ActivationToken", [.uint32(serverID), .string("spoofed-token")]),
                ("NotificationReplied", [.uint32(serverID), .string("spoofed text")]),
                ("ActionInvoked", [.uint32(serverID), .string("spoofed")]),
            ]
            for target in [nil, destination] {
                for (member, arguments) in signals {
                    try rogue.emit(
                        path: "/org/freedesktop/Notifications", interface: "org.freedesktop.Notifications",
                        member: member, arguments: arguments, destination: target)
                }
            }
        }

        @Test("the exec handler never runs for them, no Responded is sent, and the real action still counts once")
        func spoofedSignalsAreIgnored() async throws {
            try await DaemonRig.with(.plasma) { rig in
                let daemon = try await rig.startDaemon()
                defer { daemon.stop() }
                let daemonName = try #require(try await rig.client.nameOwner(of: BridgeAPI.busName))
                let command = rig.directory.appendingPathComponent("record")
                try ExecutableScript.write(Self.recorder, to: command.path)
                let answers = rig.directory.appendingPathComponent("answers")
                try FileManager.default.createDirectory(at: answers, withIntermediateDirectories: true)
                let responded = try await rig.client.signals(
                    matching: DBusMatchRule(
                        sender: BridgeAPI.busName, interface: BridgeAPI.interfaceName,
                        member: BridgeSignal.responded.name))

                // Actions with a spoofed key, a real key and text input, so a spoof would name something that exists.
                let actions = DBusValue.array(
                    element: "a{sv}",
                    [
                        .vardict([
                            ActionKeys.id.name: .string("spoofed"), ActionKeys.title.name: .string("Spoofed"),
                            ActionKeys.activation.name: .string("foreground"),
                        ]),
                        .vardict([
                            ActionKeys.id.name: .string("real"), ActionKeys.title.name: .string("Real"),
                            ActionKeys.activation.name: .string("foreground"),
                        ]
                        ),
                    ])
                let toCommand = try await rig.post([
                    PostKeys.title.name: .string("To a command"), PostKeys.actions.name: actions,
                    PostKeys.exec.name: .strings([command.path]),
                    PostKeys.timeout.name: .int32(0),
                ])
                let commandShown = try await rig.nextNotification()
                let toPoster = try await rig.post([
                    PostKeys.title.name: .string("To the poster"), PostKeys.actions.name: actions,
                    PostKeys.timeout.name: .int32(0),
                ])
                let posterShown = try await rig.nextNotification()
                let witness = try await rig.post([
                    PostKeys.title.name: .string("Witness"), PostKeys.actions.name: plainActions("real"),
                    PostKeys.exec.name: .strings([command.path]),
                    PostKeys.timeout.name: .int32(0),
                ])
                let witnessShown = try await rig.nextNotification()

                let rogue = try await rig.bus.connect()
                defer { Task { await rogue.close() } }
                try Self.spoof(commandShown.id, from: rogue, to: daemonName)
                try Self.spoof(posterShown.id, from: rogue, to: daemonName)
                // The bus delivers the rogue's messages in order, so the daemon has read the spoofs once this returns;
                // it handles server signals in the order they came, so anything they caused comes before the witness.
                try await rig.call(BridgeMethod.listCategories.name, from: rogue)
                try await rig.server.invokeAction(id: witnessShown.id, key: "real")
                try await withTimeout(waitingFor: "the witness's command to run") {
                    while try !FileManager.default.contentsOfDirectory(atPath: answers.path).contains(where: {
                        $0.hasPrefix(witness) && !$0.hasSuffix(".partial")
                    }) {
                        try await Task.sleep(for: .milliseconds(20))
                    }
                }

                // Now the real server acts on both; the first response each gets is the real one, with the real token.
                try await rig.server.invokeAction(id: posterShown.id, key: "real", activationToken: "real-token")
                let signal = try await responded.first(waitingFor: "the poster's response")
                #expect(signal.arguments.prefix(2) == [.string(toPoster), .string("real")])
                let response = signal.arguments.last?.stringKeyedEntries ?? [:]
                #expect(response[ResponseKeys.text.name] == nil, "\(response)")
                #expect(response[ResponseKeys.activationToken.name] == .variant(.string("real-token")), "\(response)")

                try await rig.server.invokeAction(id: commandShown.id, key: "real", activationToken: "real-token")
                let runs = try await withTimeout(waitingFor: "the command's run") {
                    while true {
                        let done = try FileManager.default.contentsOfDirectory(atPath: answers.path).filter {
                            $0.hasPrefix(toCommand) && !$0.hasSuffix(".partial")
                        }
                        if !done.isEmpty { return done }
                        try await Task.sleep(for: .milliseconds(20))
                    }
                }
                #expect(runs.count == 1, "\(runs)")
                let run = answers.appendingPathComponent(runs[0])
                #expect(try String(contentsOf: run.appendingPathComponent("action"), encoding: .utf8) == "real")
                #expect(try String(contentsOf: run.appendingPathComponent("text"), encoding: .utf8) == "unset")
                #expect(try String(contentsOf: run.appendingPathComponent("token"), encoding: .utf8) == "real-token")
                // One round trip later nothing else has run: each notification's command ran once, the witness's too.
                try await rig.call(BridgeMethod.listCategories.name)
                let all = try FileManager.default.contentsOfDirectory(atPath: answers.path)
                #expect(all.filter { $0.hasPrefix(toCommand) }.count == 1, "\(all)")
                #expect(all.filter { $0.hasPrefix(witness) }.count == 1, "\(all)")
                #expect(daemon.poll() == nil, "the daemon exited; log: \(rig.logText)")
            }
        }
    }
}
