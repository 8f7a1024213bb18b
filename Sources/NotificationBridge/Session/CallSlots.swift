/// A bound on the calls of one kind that the session has out to the server at once, the rest waiting their turn in
/// the order they came.
///
/// A bus bounds the replies one connection may wait for (dbus-daemon's `max_replies_per_connection`): a call beyond
/// it fails at once with `LimitsExceeded` and never reaches the server. Withdrawing thousands of notifications at once
/// would send thousands of `CloseNotification` calls, and all but the first few would be lost that way, leaving the
/// server showing what the daemon had forgotten. Each call takes a slot before it is sent and gives it back once
/// answered; a slot given back goes to the oldest waiter.
struct CallSlots {
    /// How many calls may be out at once.
    let limit: Int
    private var taken = 0
    /// The waiters in the order they came, from `nextWaiter` on: those before it have their slot. Taking the first
    /// out of an array moves all the others, which made a withdrawal of 100,000 quadratic; the served ones are dropped
    /// once they are half the array, and all of it once none waits.
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var nextWaiter = 0

    init(limit: Int) {
        precondition(limit > 0, "a bound of calls in flight must allow one")
        self.limit = limit
    }

    /// Takes a slot if one is free; otherwise the caller waits with ``wait(_:)``.
    mutating func take() -> Bool {
        guard taken < limit else { return false }
        taken += 1
        return true
    }

    /// Waits for a slot, which ``release()`` hands over.
    mutating func wait(_ waiter: CheckedContinuation<Void, Never>) {
        waiters.append(waiter)
    }

    /// Gives a slot back: to the oldest waiter, or to the free ones.
    mutating func release() {
        guard nextWaiter < waiters.count else {
            taken -= 1
            return
        }
        let waiter = waiters[nextWaiter]
        nextWaiter += 1
        if nextWaiter == waiters.count {
            waiters = []
            nextWaiter = 0
        } else if nextWaiter * 2 > waiters.count {
            waiters.removeFirst(nextWaiter)
            nextWaiter = 0
        }
        waiter.resume()
    }

    /// How many calls are out.
    var inUse: Int { taken }
}
