import Synchronization

/// The lock state shared by a ``SessionLockMonitor`` and the task that follows its source, with the tasks waiting
/// for it to change.
final class LockStateCell: Sendable {
    private struct State {
        var locked: Bool
        var waiters: [UInt64: Waiter] = [:]
        var nextWaiter: UInt64 = 0
    }

    private struct Waiter {
        let wantsLocked: Bool
        let continuation: CheckedContinuation<Void, Never>
    }

    private let state: Mutex<State>

    init(locked: Bool) {
        state = Mutex(State(locked: locked))
    }

    /// The current state.
    var isLocked: Bool { state.withLock { $0.locked } }

    /// Records a new state and wakes the tasks waiting for it.
    func set(_ locked: Bool) {
        let woken = state.withLock { state -> [Waiter] in
            state.locked = locked
            let matching = state.waiters.filter { $0.value.wantsLocked == locked }
            for id in matching.keys { state.waiters[id] = nil }
            return Array(matching.values)
        }
        for waiter in woken { waiter.continuation.resume() }
    }

    /// Returns when the state is `locked` (at once if it is), or when the task is cancelled.
    func wait(untilLocked locked: Bool) async {
        guard isLocked != locked else { return }
        let id = state.withLock { state -> UInt64 in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // Checked under the lock: a cancellation after this point finds the waiter registered, one before it
                // has already set the task's flag.
                let ready = state.withLock { state -> Bool in
                    guard state.locked != locked, !Task.isCancelled else { return true }
                    state.waiters[id] = Waiter(wantsLocked: locked, continuation: continuation)
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume()
        }
    }
}
