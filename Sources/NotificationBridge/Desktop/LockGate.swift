/// Holds the responses of actions that require authentication while the session is locked, and hands them over right
/// after it unlocks, in the order they arrived.
///
/// Like `UIUserNotificationAction.authenticationRequired`: a background action that needs no authentication runs even
/// on a locked screen; one that does waits for the user to unlock. A held response whose notification is withdrawn
/// meanwhile is dropped (``drop(notificationID:)``). If the session locks again while held responses are being handed
/// over, the rest wait for the next unlock.
///
/// Calls may come from any task. Handlers never run inside the actor, so a handler may call back into the gate. Held
/// responses are handed over by ``run()``, which the gate's owner runs in its own task group: the gate has no task of
/// its own.
package actor LockGate {
    private struct HeldResponse {
        let notificationID: String
        let handler: @Sendable () async -> Void
    }

    private enum Step {
        case run(@Sendable () async -> Void)
        case waitForUnlock
        case finished
    }

    private let monitor: SessionLockMonitor
    private var held: [HeldResponse] = []
    /// Whether ``run()`` is handing held responses over, from the first held until none is left.
    private var isReleasing = false
    /// Tells ``run()`` that responses are held.
    private let wakes: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation

    /// Makes a gate that follows `monitor`.
    package init(monitor: SessionLockMonitor) {
        self.monitor = monitor
        (wakes, wake) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Hands held responses over, one at a time, each once the session is unlocked, until the task is cancelled
    /// (responses still held then never run). Run it once.
    package nonisolated func run() async {
        for await _ in wakes {
            release: while !Task.isCancelled {
                await monitor.waitUntilUnlocked()
                guard !Task.isCancelled else { return }
                switch await nextStep() {
                case .run(let handler): await handler()
                case .waitForUnlock: continue
                case .finished: break release
                }
            }
        }
    }

    /// How many responses are held, waiting for an unlock.
    package var heldCount: Int { held.count }

    /// Runs `handler` now, or holds it until the session unlocks.
    ///
    /// It runs now, and this returns after it finished, when no authentication is required, or when the session is
    /// unlocked and no earlier response is still held (those go first). Otherwise this returns at once and the handler
    /// runs after the unlock, after the responses held before it; handlers released by an unlock run one at a time.
    ///
    /// - Parameters:
    ///   - notificationID: the notification the response belongs to, for ``drop(notificationID:)``.
    ///   - requiresAuthentication: whether the action needs an unlocked session.
    ///   - handler: delivers the response.
    package func deliver(
        notificationID: String, requiresAuthentication: Bool, _ handler: @escaping @Sendable () async -> Void
    ) async {
        if !requiresAuthentication || (held.isEmpty && !isReleasing && !monitor.isLockedNow) {
            await handler()
            return
        }
        held.append(HeldResponse(notificationID: notificationID, handler: handler))
        if !isReleasing {
            isReleasing = true
            wake.yield()
        }
    }

    /// Forgets the held responses of a notification (withdrawn, or replaced); they will never run.
    package func drop(notificationID: String) {
        held.removeAll { $0.notificationID == notificationID }
    }

    private func nextStep() -> Step {
        guard !held.isEmpty else {
            isReleasing = false
            return .finished
        }
        if monitor.isLockedNow { return .waitForUnlock }
        return .run(held.removeFirst().handler)
    }
}
