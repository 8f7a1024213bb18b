import Synchronization

/// Takes the operations on one notification in the order they were asked for, one at a time: a replacement or a
/// withdrawal asked while the notification's `Notify` is out waits until the server has said which id it gave, and
/// then acts on that id.
///
/// A turn is reserved without waiting (an owner that asks in order, such as an actor, gets its turns in that order,
/// whichever of its tasks reaches the session first), then awaited, and ended exactly once.
final class NotificationTurns: Sendable {
    private struct Line {
        var next: UInt64 = 0
        var serving: UInt64 = 0
        var waiting: [UInt64: CheckedContinuation<Void, Never>] = [:]
    }

    private let lines = Mutex<[String: Line]>([:])

    /// Reserves the next turn on notification `id`.
    func reserve(_ id: String) -> NotificationServerSession.Turn {
        lines.withLock { lines in
            let ticket = lines[id, default: Line()].next
            lines[id, default: Line()].next += 1
            return NotificationServerSession.Turn(id: id, ticket: ticket)
        }
    }

    /// Waits until the turns reserved before `turn` have ended.
    func wait(for turn: NotificationServerSession.Turn) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = lines.withLock { lines -> Bool in
                guard lines[turn.id]?.serving != turn.ticket else { return true }
                lines[turn.id]?.waiting[turn.ticket] = continuation
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Ends `turn`, and lets the next one on the same notification go.
    func end(_ turn: NotificationServerSession.Turn) {
        let next = lines.withLock { lines -> CheckedContinuation<Void, Never>? in
            guard var line = lines[turn.id] else { return nil }
            line.serving += 1
            if line.serving == line.next {
                lines[turn.id] = nil
                Self.shrinkIfSparse(&lines)
                return nil
            }
            let next = line.waiting.removeValue(forKey: line.serving)
            lines[turn.id] = line
            return next
        }
        next?.resume()
    }

    /// The capacity below which the lines never give storage back.
    private static let keptCapacity = 1_024

    /// Gives the storage of the lines back once under a quarter of it is used: a withdrawal of 100,000 reserves a turn
    /// on each at once, and a dictionary never shrinks by itself. Each shrink copies what is left, and the next needs
    /// a quarter again, so each turn ended costs a constant on average.
    private static func shrinkIfSparse(_ lines: inout [String: Line]) {
        guard lines.capacity > keptCapacity, lines.count * 4 < lines.capacity else { return }
        lines = Dictionary(uniqueKeysWithValues: lines.lazy.map { ($0.key, $0.value) })
    }
}
