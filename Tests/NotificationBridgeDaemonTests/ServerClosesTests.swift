import Synchronization
import Testing

@testable import NotificationBridge
@testable import NotificationBridgeDaemon

/// The closes of a large withdrawal: every one reaches the server, never more out at once than the bus allows one
/// connection to wait for, and one job sends them all.
@Suite("Closes queued for the server")
struct ServerClosesTests {
    /// What the fake server saw.
    private struct Seen {
        var closed: [String] = []
        var out = 0
        var mostOut = 0
    }

    @Test("10,000 closes queued at once all go out through one job, at most 32 out at a time")
    func windowed() async {
        let closes = ServerCloses()
        let count = 10_000
        var starts = 0
        for index in 0..<count {
            if closes.enqueue(NotificationServerSession.Turn(id: "n\(index)", ticket: 0)) { starts += 1 }
        }
        #expect(starts == 1, "one job for the whole withdrawal")
        let seen = Mutex(Seen())
        await closes.send { turn in
            seen.withLock { seen in
                seen.out += 1
                seen.mostOut = max(seen.mostOut, seen.out)
            }
            // An answer takes a turn of the thread pool, so that the others queue up behind it.
            await Task.yield()
            // A close asked while the job sends: it goes with the same job.
            if turn.id == "n0" {
                #expect(!closes.enqueue(NotificationServerSession.Turn(id: "late", ticket: 0)))
            }
            seen.withLock { seen in
                seen.out -= 1
                seen.closed.append(turn.id)
            }
        }
        let result = seen.withLock { $0 }
        #expect(result.closed.count == count + 1, "every close sent, the late one too")
        #expect(Set(result.closed).count == count + 1)
        #expect(result.mostOut <= ServerCloses.window, "at most \(ServerCloses.window) out, not \(result.mostOut)")
        #expect(result.mostOut > 1, "sent concurrently, not one by one")
        // Once the queue is empty, the next close starts a job again.
        #expect(closes.enqueue(NotificationServerSession.Turn(id: "next", ticket: 0)))
        closes.abandon()
    }
}
