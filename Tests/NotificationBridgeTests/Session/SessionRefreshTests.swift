import DBusTestSupport
import NotificationModel
import NotificationServerKit
import Testing

@testable import NotificationBridge

/// A notification shown again in its place (a thread's count brought up to date) while the user closes it: it stays
/// closed, and the session follows it no longer.
@Suite("The session showing a notification again")
struct SessionRefreshTests {
    /// Posts "ann", then shows it again with a new count, whose `Notify` the server holds until told to answer;
    /// returns the first post and the refresh under way.
    static func refreshHeld(
        _ session: NotificationServerSession, _ server: TestServer
    ) async throws -> (placed: NotificationServerSession.Placement, refreshing: Task<Bool, any Error>) {
        let placed = try await session.post(titled("Ann"), category: nil, id: "ann")
        await server.server.setNotifyAnswer(.never)
        let refreshing = Task {
            try await session.refresh(
                titled("Ann, 2 notifications"), category: nil, id: "ann", turn: session.reserveTurn(for: "ann"))
        }
        try await server.nextHeld()
        return (placed, refreshing)
    }

    /// Waits until the server shows nothing.
    static func awaitNothingShown(_ server: TestServer) async throws {
        try await withTimeout(.seconds(30), waitingFor: "the server to show nothing") {
            while await !server.summaries.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        }
    }

    @Test("closed by the user while it is shown again, it stays closed, and its owner hears of the close")
    func closedDuringRefreshStaysClosed() async throws {
        try await withPrivateBus { bus in
            let server = try await TestServer.start(on: bus)
            try await withSession(on: bus) { session in
                let (placed, refreshing) = try await Self.refreshHeld(session, server)
                // Closed while the replacement is out: the server takes the replacement after it, of an id it no
                // longer shows, and shows it anew.
                try await server.server.dismiss(id: placed.serverID)
                await server.server.setNotifyAnswer(.immediately)
                #expect(try await refreshing.value == false, "the refresh says it was not shown again")
                _ = try await nextSessionEvent(of: session, "the close of ann") { event -> Bool? in
                    if case .closed(let closure) = event, closure.notification.id == "ann" { true } else { nil }
                }
                try await Self.awaitNothingShown(server)
            }
            await server.stop()
        }
    }

    @Test("closed by the user just after the server took it again, its close read first, it is followed no longer")
    func closeReadBeforeTheRefreshAnswerEndsIt() async throws {
        try await withPrivateBus { bus in
            let server = try await TestServer.start(on: bus)
            try await withSession(on: bus) { session in
                let (placed, refreshing) = try await Self.refreshHeld(session, server)
                // The server takes the replacement, keeping the id, and the user closes it at once: the server sends
                // its answer, then the close, but the session may read the close first. Sent here before the answer,
                // so that it is read first every time.
                try server.connection.emit(
                    path: NotificationServer.objectPath, interface: NotificationServer.interfaceName,
                    member: "NotificationClosed",
                    arguments: [.uint32(placed.serverID), .uint32(NotificationCloseReason.dismissed.rawValue)])
                _ = try await nextSessionEvent(of: session, "the close of ann") { event -> Bool? in
                    if case .closed(let closure) = event, closure.notification.id == "ann" { true } else { nil }
                }
                await server.server.setNotifyAnswer(.immediately)
                #expect(try await refreshing.value == false, "the refresh says it was not shown again")
                // Followed still, it would be posted again to the next server that takes the name, after its owner
                // was told it closed.
                let followed = await session.shownIDs
                #expect(followed.isEmpty, "the session still follows \(followed)")
                try await Self.awaitNothingShown(server)
            }
            await server.stop()
        }
    }
}
