import DBusCore
import DBusTestSupport
import NotificationModel
import NotificationServerKit
import Testing

@testable import NotificationBridge

/// What the session does while a `Notify` is out: a replacement or a withdrawal acts on the notification once the
/// server has said which id it gave, and an answer that comes after the call timed out is not left on the screen.
@Suite("The session while a Notify is out")
struct SessionOrderingTests {
    @Test("a replacement asked while the first Notify is out replaces it: one copy on the screen")
    func replacementWaitsForTheFirstNotify() async throws {
        try await withPrivateBus { bus in
            let server = try await TestServer.start(on: bus, answer: .never)
            try await withSession(on: bus) { session in
                let firstTurn = session.reserveTurn(for: "n")
                let secondTurn = session.reserveTurn(for: "n")
                async let first = session.post(titled("older"), category: nil, id: "n", turn: firstTurn)
                try await server.nextHeld()
                async let second = session.post(titled("newer"), category: nil, id: "n", turn: secondTurn)
                await server.server.setNotifyAnswer(.immediately)
                let (placedFirst, placedSecond) = try await (first, second)
                let shown = await server.summaries
                #expect(shown == ["newer"], "the server shows: \(shown)")
                #expect(placedSecond.serverID == placedFirst.serverID, "the replacement took another id")
                #expect(await session.serverID(of: "n") == placedSecond.serverID)
            }
            await server.stop()
        }
    }

    @Test("a withdrawal asked while the Notify is out takes the notification off the screen once it is shown")
    func withdrawalWaitsForTheNotify() async throws {
        try await withPrivateBus { bus in
            let server = try await TestServer.start(on: bus, answer: .never)
            try await withSession(on: bus) { session in
                let postTurn = session.reserveTurn(for: "n")
                let withdrawTurn = session.reserveTurn(for: "n")
                async let posted = session.post(titled("older"), category: nil, id: "n", turn: postTurn)
                try await server.nextHeld()
                async let withdrawn = session.withdraw(id: "n", turn: withdrawTurn)
                await server.server.setNotifyAnswer(.immediately)
                let placed = try await posted
                #expect(await withdrawn?.id == "n", "the withdrawal found nothing to withdraw")
                let closed = try await server.next("the server to close the notification") { event -> UInt32? in
                    if case .closed(let served, _) = event { served.id } else { nil }
                }
                #expect(closed == placed.serverID)
                let shown = await server.summaries
                #expect(shown.isEmpty, "the server still shows: \(shown)")
                #expect(await session.serverID(of: "n") == nil)
            }
            await server.stop()
        }
    }

    @Test("a Notify answered after the call timed out is closed on the server, not left showing unfollowed")
    func lateAnswerIsClosed() async throws {
        try await withPrivateBus { bus in
            let server = try await TestServer.start(on: bus, answer: .never)
            try await withSession(on: bus, serverTimeout: .seconds(1)) { session in
                await #expect(throws: DBusFailure.self) {
                    try await session.post(titled("late"), category: nil, id: "n")
                }
                await server.server.setNotifyAnswer(.immediately)
                let shown = try await server.next("the late Notify to be answered") { event -> UInt32? in
                    if case .notified(let served) = event { served.id } else { nil }
                }
                let closed = try await server.next("the late notification to be closed") { event -> UInt32? in
                    if case .closed(let served, _) = event { served.id } else { nil }
                }
                #expect(closed == shown)
                let left = await server.summaries
                #expect(left.isEmpty, "the server still shows: \(left)")
                #expect(await session.shownIDs.isEmpty)
            }
            await server.stop()
        }
    }
}
