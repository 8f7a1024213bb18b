import NotificationBridge
import Synchronization

/// The closes the daemon asks of the server, queued in the order it took the notifications off and sent a window at a
/// time by one job.
///
/// A `WithdrawAll` of 100,000 showing used to start a job per close, each a task parked on the session's bound of
/// calls out until its turn came: 100,000 tasks at once, each with its own memory, which the allocator then kept. Now
/// the actor only queues each close (no task, no hop), and one job sends them, at most ``window`` out at once, the
/// session's own bound on the closes it has out.
final class ServerCloses: Sendable {
    /// How many closes the job has out at once.
    static let window = 32

    private struct Queue {
        var waiting: [NotificationServerSession.Turn] = []
        /// Whether a job sends what is queued: a close queued meanwhile goes with it.
        var isSending = false
    }

    private let queue = Mutex(Queue())
    /// Counts the closes from their queueing to their answer, so that the end of a large withdrawal gives its memory
    /// back.
    let release = LargeRelease()

    /// Queues the close of the notification `turn` is on; returns whether a job must be started to send it (none is
    /// sending).
    func enqueue(_ turn: NotificationServerSession.Turn) -> Bool {
        release.started()
        return queue.withLock { queue in
            queue.waiting.append(turn)
            defer { queue.isSending = true }
            return !queue.isSending
        }
    }

    /// Sends every close queued, and those queued meanwhile, through `close`, at most ``window`` at once; returns once
    /// none is left.
    func send(through close: @escaping @Sendable (NotificationServerSession.Turn) async -> Void) async {
        let release = self.release
        await withTaskGroup(of: Void.self) { group in
            var out = 0
            while let batch = takeQueued() {
                for turn in batch {
                    if out == Self.window {
                        await group.next()
                        out -= 1
                    }
                    out += 1
                    group.addTask {
                        await close(turn)
                        release.finished()
                    }
                }
            }
        }
    }

    /// Drops what is queued: no job will send it (the daemon is stopping).
    func abandon() {
        let dropped = queue.withLock { queue in
            defer { queue = Queue() }
            return queue.waiting.count
        }
        for _ in 0..<dropped { release.finished() }
    }

    /// What is queued, taken out of the queue; `nil`, and no longer sending, once nothing is.
    private func takeQueued() -> [NotificationServerSession.Turn]? {
        queue.withLock { queue in
            guard !queue.waiting.isEmpty else {
                queue.isSending = false
                return nil
            }
            defer { queue.waiting = [] }
            return queue.waiting
        }
    }
}
