import DBusTestSupport
import NotificationModel
import NotificationServerKit
import Testing

@testable import NotificationBridge

/// A notification shown again in its place (a thread's count brought up to date) while the user closes it: it stays
/// closed.
@Suite("The session showing a notification again")
struct SessionRefreshTests {
    @Test("closed by the user while it is shown again, it stays closed, and its owner hears of the close")
    func closedDuringRefreshStaysClosed() async throws {
        try await withPrivateBus { bus in
            let server = try await TestServer.start(on: bus)
            try await withSession(on: bus) { session in
                let placed = try await session.post(titled("Ann"), category: nil, id: "ann")
                await server.server.setNotifyAnswer(.never)
                let refreshing = Task {
                    try await session.refresh(
                        titled("Ann, 2 notifications"), category: nil, id: "ann",
                        turn: session.reserveTurn(for: "ann"))
                }
                try await server.nextHeld()
                // Closed while the replacement is out: the server takes the replacement after it, of an id it no
                // longer shows, and shows it anew.
                try await server.server.dismiss(id: placed.serverID)
                await server.server.setNotifyAnswer(.immediately)
                #expect(try await refreshing.value == false, "the refresh says it was not shown again")
                _ = try await nextSessionEvent(of: session, "the close of ann") { event -> Bool? in
                    if case .closed(let closure) = event, closure.notification.id == "ann" { true } else { nil }
                }
                try await withTimeout(.seconds(30), waitingFor: "the server to show nothing") {
                    while await !server.summaries.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
                }
            }
            await server.stop()
        }
    }
}
