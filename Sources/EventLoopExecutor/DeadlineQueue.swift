/// Jobs waiting for a time on one clock, earliest first: a binary min-heap ordered by deadline, then by the order
/// they were added, so that two jobs due at the same nanosecond run in the order they were scheduled.
struct DeadlineQueue {
    struct Entry {
        /// Nanoseconds on the queue's clock (`CLOCK_MONOTONIC` or `CLOCK_BOOTTIME`).
        var deadline: Int64
        var sequence: UInt64
        var job: EventLoop.Job
    }

    private var heap: [Entry] = []
    private var nextSequence: UInt64 = 0

    var isEmpty: Bool { heap.isEmpty }

    /// The earliest deadline, or `nil` when nothing waits.
    var earliest: Int64? { heap.first?.deadline }

    mutating func insert(_ job: EventLoop.Job, deadline: Int64) {
        heap.append(Entry(deadline: deadline, sequence: nextSequence, job: job))
        nextSequence &+= 1
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes every job whose deadline is at or before `now`, earliest first, and appends it to `due`.
    mutating func removeDue(at now: Int64, into due: inout [EventLoop.Job]) {
        while let first = heap.first, first.deadline <= now {
            due.append(first.job)
            removeFirst()
        }
    }

    private mutating func removeFirst() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count, precedes(heap[left], heap[smallest]) { smallest = left }
            if right < heap.count, precedes(heap[right], heap[smallest]) { smallest = right }
            guard smallest != parent else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }

    private func precedes(_ a: Entry, _ b: Entry) -> Bool {
        a.deadline != b.deadline ? a.deadline < b.deadline : a.sequence < b.sequence
    }
}
