import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationServerKit
import Testing

/// A daemon restart on a server that sends its signals to the poster alone (dunst's profile): the new daemon takes
/// its notifications over, so that the user's choice reaches it and not the connection of the dead one.
@Suite("Notifications taken over after a daemon restart")
struct UnicastRestartTests {
    @Test("after kill -9 and a restart, a choice on dunst reaches WaitForResponse and the notification is gone")
    func choiceAfterRestartOnUnicastServer() async throws {
        try await SchedulingTests.withSetup(.dunst) { setup in
            let (id, shown, second) = try await postThenRestartDaemon(setup, extra: "'timeout': <0>, ")
            defer { second.stop() }
            // Answered once the new daemon has restored what the last one showed.
            #expect(
                try await setup.gdbus(BridgeMethod.listDelivered.name, "{'app-name': <'Chat'>}").contains("'\(id)'"))

            // A response that comes before the call is kept for it.
            let waiting = Task { try await setup.gdbus(BridgeMethod.waitForResponse.name, "'\(id)'") }
            try await setup.server.invokeAction(id: shown.id, key: "yes")
            let response = try await withTimeout(.seconds(15), waitingFor: "WaitForResponse to return the choice") {
                try await waiting.value
            }
            #expect(response.contains("'yes'"), "the response is \(response)")
            try await withTimeout(.seconds(10), waitingFor: "the notification to leave ListDelivered") {
                while try await setup.gdbus(BridgeMethod.listDelivered.name, "{'app-name': <'Chat'>}")
                    != "(@aa{sv} [],)"
                {
                    try await Task.sleep(for: .milliseconds(50))
                }
            }
        }
    }

    @Test("on GNOME Shell 43, whose replaced banners lose their buttons, the copy is closed and shown anew with them")
    func choiceAfterRestartOnGnomeShell43() async throws {
        try await SchedulingTests.withSetup(.gnomeShell43) { setup in
            let (id, shown, second) = try await postThenRestartDaemon(setup)
            defer { second.stop() }

            let again = try await setup.nextNotification()
            #expect(again.id != shown.id, "replaced in place: GNOME Shell 43 would show it without buttons")
            #expect(again.actions.map(\.key).contains("yes"), "shown again without its button: \(again.actions)")
            #expect(await setup.server.notification(id: shown.id) == nil, "the old copy is still on the screen")

            let waiting = Task { try await setup.gdbus(BridgeMethod.waitForResponse.name, "'\(id)'") }
            try await setup.server.invokeAction(id: again.id, key: "yes")
            let response = try await withTimeout(.seconds(15), waitingFor: "WaitForResponse to return the choice") {
                try await waiting.value
            }
            #expect(response.contains("'yes'"), "the response is \(response)")
        }
    }

    /// Posts "Lunch?" with a background "Yes" through a daemon, waits until the server shows it, kills the daemon
    /// with SIGKILL and starts a new one; `extra` adds entries to the Post (each followed by ", ").
    private func postThenRestartDaemon(
        _ setup: SchedulingTests.Setup, extra: String = ""
    ) async throws -> (id: String, shown: ServedNotification, daemon: ChildProcess) {
        let first = try await setup.startDaemon()
        let id = try postedID(
            try await setup.gdbus(
                BridgeMethod.post.name,
                "{'title': <'Lunch?'>, 'app-name': <'Chat'>, \(extra)'actions': <[{'id': <'yes'>, "
                    + "'title': <'Yes'>, 'activation': <'background'>}]>}"))
        let shown = try await setup.nextNotification()
        first.signal(SIGKILL)
        #expect(await first.wait(within: .seconds(10)) == 128 + SIGKILL)
        return (id, shown, try await setup.startDaemon())
    }
}
