import NotificationStore
import Synchronization

/// Notices the end of a large release, so that the memory it freed goes back to the system.
///
/// Withdrawing thousands of showing notifications at once lets go of their entries at once, but their closes go to
/// the server a few at a time (the session's bound on the calls it has out), each holding what it closes until it is
/// answered. The C library's allocator keeps the freed pages for the process (a withdrawal of 10,000 left the daemon
/// at twice its idle memory for good): once the last close of a large batch is answered, the heap's free pages are
/// given back (``HeapTrim``). A few closes are not worth the trim; a large withdrawal of scheduled notifications
/// trims when the store gives its file space back instead.
final class LargeRelease: Sendable {
    /// How many closes out at once make a release large: a thousand notifications are some megabytes.
    static let threshold = 1_000

    private struct Count {
        /// Closes started and not yet answered.
        var out = 0
        /// The most that were out since none were.
        var peak = 0
    }

    private let count = Mutex(Count())

    /// Notes a close sent on its way.
    func started() {
        count.withLock { count in
            count.out += 1
            count.peak = max(count.peak, count.out)
        }
    }

    /// Notes a close answered; the last of a large batch gives the heap's free pages back.
    func finished() {
        let large = count.withLock { count in
            count.out -= 1
            guard count.out == 0 else { return false }
            defer { count.peak = 0 }
            return count.peak >= Self.threshold
        }
        if large { HeapTrim.releaseFreePages() }
    }
}
