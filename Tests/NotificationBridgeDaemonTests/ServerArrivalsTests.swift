import Testing

@testable import NotificationBridgeDaemon

/// The order of a firing's `Notify` that found no server and the servers that became ready, with no bus: a firing
/// never waits for a server that became ready after it was sent.
@Suite("Server arrivals")
struct ServerArrivalsTests {
    /// One interleaving: how many servers became ready before the `Notify` was sent, and between its sending and the
    /// handling of its failure.
    struct Row: Sendable, CustomTestStringConvertible {
        var readyBefore: Int
        var readyBetween: Int
        var decision: ServerArrivals.Decision

        var testDescription: String {
            "\(readyBefore) ready before the Notify, \(readyBetween) before its failure: \(decision)"
        }
    }

    static let rows = [
        // No server came: it waits for one.
        Row(readyBefore: 0, readyBetween: 0, decision: .awaitServer),
        // The server that was ready when it was sent has gone since (the failure says so): it waits for the next.
        Row(readyBefore: 1, readyBetween: 0, decision: .awaitServer),
        Row(readyBefore: 3, readyBetween: 0, decision: .awaitServer),
        // A server became ready while its Notify was out, and found nothing waiting: it is shown again now.
        Row(readyBefore: 0, readyBetween: 1, decision: .showAgain),
        Row(readyBefore: 2, readyBetween: 1, decision: .showAgain),
        Row(readyBefore: 0, readyBetween: 2, decision: .showAgain),
    ]

    @Test("a firing that found no server waits unless one became ready since it was sent", arguments: rows)
    func decision(_ row: Row) {
        var arrivals = ServerArrivals()
        for _ in 0..<row.readyBefore { arrivals.serverReady() }
        let sent = arrivals.stamp
        for _ in 0..<row.readyBetween { arrivals.serverReady() }
        #expect(arrivals.decision(sentAt: sent) == row.decision)
    }

    @Test("shown again, it is stamped anew: a second failure without another server waits, rather than looping")
    func secondFailureWaits() {
        var arrivals = ServerArrivals()
        let first = arrivals.stamp
        arrivals.serverReady()
        #expect(arrivals.decision(sentAt: first) == .showAgain)
        let again = arrivals.stamp
        #expect(arrivals.decision(sentAt: again) == .awaitServer)
    }
}
