import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationBridgeDaemon
import Testing

/// Typed text through the daemon's prompt: the notification closes when the action is chosen and the text comes
/// later, so a `WaitForResponse` made in between waits for it instead of failing.
@Suite("Prompt replies and WaitForResponse")
struct PromptWaitTests {
    @Test("WaitForResponse called after the notification closed, while the prompt is open, returns the typed text")
    func lateWaitGetsThePromptText() async throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent(
            "prompt-\(UInt64.random(in: 0...UInt64.max))")
        defer { try? FileManager.default.removeItem(at: log) }
        let started = log.appendingPathExtension("started")
        defer { try? FileManager.default.removeItem(at: started) }
        // The prompt opens once the server has closed the notification, says so (the "started" file), and answers
        // only once the test has sent WaitForResponse (it creates the log file); the script gives up after a
        // minute, so a failing test still ends.
        let script = try ExecutableScript.temporary(
            "#!/bin/sh\n: > '\(started.path)'\n"
                + "i=0\nwhile [ ! -e '\(log.path)' ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done\n"
                + "printf '%s\\n' 'typed late'\n",
            name: "prompt")
        try await DaemonFixture.with(.dunst, promptCommand: [script]) { fixture in
            let signals = try await fixture.client.signals(
                matching: DBusMatchRule(
                    sender: BridgeAPI.busName, path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName,
                    member: BridgeSignal.closed.name))
            let id = try await fixture.post([
                PostKeys.title.name: .string("Ann"), PostKeys.actions.name: ActionList.textInput(id: "reply"),
            ])
            let shown = try await fixture.nextNotification()
            try await fixture.scripted.invokeAction(id: shown.id, key: "reply")
            try await fixture.nextClosure(of: shown.id)
            try await withTimeout(waitingFor: "the prompt to open") {
                while !FileManager.default.fileExists(atPath: started.path) {
                    try await Task.sleep(for: .milliseconds(20))
                }
            }

            // The poster waits: typed text goes to the posting connection alone while it is connected.
            async let waited = fixture.call(BridgeMethod.waitForResponse.name, [.string(id)])
            // Let the call reach the daemon before the prompt answers: a call to the bus behind it comes back after.
            _ = try await fixture.client.nameOwner(of: BridgeAPI.busName)
            try Data().write(to: log)
            let reply = try await waited
            #expect(reply.first == .string("reply"))
            #expect(reply.last?.stringKeyedEntries?[ResponseKeys.text.name] == .variant(.string("typed late")))
            // Closed waited for the response: it comes now, after it.
            let closed = try await signals.first(waitingFor: BridgeSignal.closed.name)
            #expect(closed.arguments.first == .string(id))
        }
    }
}
