/// Holds the responses of actions that require authentication while the session is locked, and hands them over right
/// after it unlocks, in the order they arrived.
///
/// Like `UIUserNotificationAction.authenticationRequired`: a background action that needs no authentication runs even
/// on a locked screen; one that does waits for the user to unlock. A held response whose notification is withdrawn
/// meanwhile is dropped (``drop(notificationID:)``). If the session locks again while held responses are being handed
/// over, the rest wait for the next unlock.
///
/// Calls may come from any task. Handlers never run inside the actor, so a handler may call back into the gate.
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
    /// The task handing held responses over, one at a time; `nil` when none are held.
    private var releaser: Task<Void, Never>?

    /// Makes a gate that follows `monitor`.
    package init(monitor: SessionLockMonitor) {
        self.monitor = monitor
    }

    deinit {
        releaser?.cancel()
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
        if !requiresAuthentication || (held.isEmpty && releaser == nil && !monitor.isLockedNow) {
            await handler()
            return
        }
        held.append(HeldResponse(notificationID: notificationID, handler: handler))
        if releaser == nil {
            // Weak, so that a gate released while responses are held can go; its deinit cancels this task.
            releaser = Task.detached { [weak self, monitor] in
                while !Task.isCancelled {
                    await monitor.waitUntilUnlocked()
                    guard !Task.isCancelled, let step = await self?.nextStep() else { return }
                    switch step {
                    case .run(let handler): await handler()
                    case .waitForUnlock: continue
                    case .finished: return
                    }
                }
            }
        }
    }

    /// Forgets the held responses of a notification (withdrawn, or replaced); they will never run.
    package func drop(notificationID: String) {
        held.removeAll { $0.notificationID == notificationID }
    }

    private func nextStep() -> Step {
        guard !held.isEmpty else {
            releaser = nil
            return .finished
        }
        if monitor.isLockedNow { return .waitForUnlock }
        return .run(held.removeFirst().handler)
    }
}
