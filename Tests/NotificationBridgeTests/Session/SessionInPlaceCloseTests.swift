import DBusCore
import DBusTestSupport
import NotificationModel
import NotificationServerKit
import Testing

@testable import NotificationBridge

/// A notification that takes the place of another on the server (a thread's earlier one brought back, or its newest
/// shown in the place of the one before) while the user closes what the server shows: the close goes to the
/// notification the server was showing under that id when it closed it.
@Suite("The session closing a notification that takes another's place")
struct SessionInPlaceCloseTests {
    @Test("a close of the id taken over, read before the answer that kept the id, is the close of the new notification")
    func closeReadBeforeTheAnswerEndsTheNewOne() async throws {
        try await withPrivateBus { bus in
            let server = try await TestServer.start(on: bus)
            try await withSession(on: bus) { session in
                let newest = try await session.post(titled("Ann 2"), category: nil, id: "ann-2")
                await server.server.setNotifyAnswer(.never)
                let bringingBack = Task {
                    try await session.post(
                        titled("Ann 1"), category: nil, id: "ann-1", turn: session.reserveTurn(for: "ann-1"),
                        inPlaceOf: ("ann-2", session.reserveTurn(for: "ann-2")))
                }
                try await server.nextHeld()
                // The user closes what the server shows under that id just after the server took the replacement:
                // the server sends its answer, then the close, but the session may read the close first. Sent here
                // before the answer, so that it is read first every time.
                try server.connection.emit(
                    path: NotificationServer.objectPath, interface: NotificationServer.interfaceName,
                    member: "NotificationClosed",
                    arguments: [.uint32(newest.serverID), .uint32(NotificationCloseReason.dismissed.rawValue)])
                await server.server.setNotifyAnswer(.immediately)
                let placed = try await bringingBack.value
                #expect(placed.serverID == newest.serverID, "the server kept the id for the one brought back")
                let closed = try await nextSessionEvent(of: session, "a close") { event -> String? in
                    if case .closed(let closure) = event { closure.notification.id } else { nil }
                }
                #expect(closed == "ann-1", "the close went to \(closed), which the server no longer showed")
                let followed = await session.shownIDs
                #expect(followed.isEmpty, "the session still follows \(followed)")
            }
            await server.stop()
        }
    }

    @Test("a close the server made before it took the replacement is the close of the one it showed then")
    func closeBeforeTheReplacementEndsTheOldOne() async throws {
        try await withPrivateBus { bus in
            let server = try await TestServer.start(on: bus)
            try await withSession(on: bus) { session in
                let newest = try await session.post(titled("Ann 2"), category: nil, id: "ann-2")
                await server.server.setNotifyAnswer(.never)
                let bringingBack = Task {
                    try await session.post(
                        titled("Ann 1"), category: nil, id: "ann-1", turn: session.reserveTurn(for: "ann-1"),
                        inPlaceOf: ("ann-2", session.reserveTurn(for: "ann-2")))
                }
                try await server.nextHeld()
                // Closed before the server takes the Notify: it shows the replacement anew, under another id.
                try await server.server.dismiss(id: newest.serverID)
                await server.server.setNotifyAnswer(.immediately)
                let placed = try await bringingBack.value
                #expect(placed.serverID != newest.serverID, "the server showed the one brought back anew")
                let closed = try await nextSessionEvent(of: session, "a close") { event -> String? in
                    if case .closed(let closure) = event { closure.notification.id } else { nil }
                }
                #expect(closed == "ann-2", "the close went to \(closed), which the server shows")
                let followed = await session.shownIDs
                #expect(followed == ["ann-1"], "the session follows \(followed)")
            }
            await server.stop()
        }
    }
}
