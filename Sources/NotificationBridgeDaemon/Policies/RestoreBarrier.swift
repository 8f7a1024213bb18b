import Synchronization

/// Holds calls back until the daemon has brought back the last run's state: each waits in ``wait()`` until ``open()``,
/// and after it passes at once without taking a lock twice (a read of one flag).
final class RestoreBarrier: Sendable {
    private struct State {
        var isOpen = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let isOpen = Atomic(false)
    private let state = Mutex(State())

    init() {}

    /// Returns once ``open()`` was called.
    func wait() async {
        if isOpen.load(ordering: .acquiring) { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.isOpen { return true }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Lets every waiting call go on, and every later one pass.
    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        isOpen.store(true, ordering: .releasing)
        for waiter in waiters { waiter.resume() }
    }

    /// Whether ``open()`` was called.
    var isOpened: Bool { isOpen.load(ordering: .acquiring) }
}
