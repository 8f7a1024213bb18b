import NotificationBridge

/// How a tracked notification moves on when the server session reports on it: a pure function from its phase and
/// the event to its next phase and the effects, which ``DaemonCore`` performs. Spec-tested as a table, with no bus.
enum TrackedTransition {
    /// What the session reported about the notification.
    enum Event: Sendable, Equatable {
        /// It left the server; `acted` says whether the user acted on it first, `dismissed` whether the close counts
        /// as the user dismissing it.
        case closed(NotificationCloseReason, acted: Bool, dismissed: Bool)
        /// The prompt for typed text ended without any.
        case promptEnded
    }

    /// What the daemon does besides changing the phase.
    enum Effect: Sendable, Equatable {
        /// Forgets its route on disk: it is no longer on the server.
        case forgetDelivered
        /// Sends `Closed(id, reason)` to the poster.
        case emitClosed(reason: UInt32)
        /// Ends it: the waiting calls fail with this message (or the phase's own when `nil`).
        case end(why: String, waitsMessage: String?)
    }

    /// The part of a tracked notification a transition reads and writes.
    struct State: Sendable {
        var phase: TrackedNotification.Phase
        /// Whether the response to what the server shows has come, or will not come.
        var isAnswered: Bool
        /// Whether a dismissal comes as a `dismiss` response.
        var reportsDismissal: Bool
    }

    /// The next state and the effects, for notification `id` in `state` on `event`.
    static func next(_ state: State, on event: Event, id: String) -> (State, [Effect]) {
        var state = state
        switch event {
        case .closed(let closeReason, let acted, let dismissed):
            guard isOnServer(state.phase) else { return (state, []) }
            let (reason, why) = wire(closeReason, dismissed: dismissed)
            var effects: [Effect] = [.forgetDelivered, .emitClosed(reason: reason)]
            // After an action the response comes by itself (from the prompt, or after an unlock); a reported
            // dismissal comes as a response too.
            let responseFollows = acted || (dismissed && state.reportsDismissal)
            if responseFollows, !state.isAnswered {
                state.phase = .responding(why)
            } else {
                state.phase = .ended(why)
                state.isAnswered = false
                effects.append(.end(why: why, waitsMessage: nil))
            }
            return (state, effects)
        case .promptEnded:
            switch state.phase {
            case .responding(let why):
                state.phase = .ended(why)
                state.isAnswered = false
                let message = "notification '\(id)' \(why); the prompt for text ended without any"
                return (state, [.end(why: why, waitsMessage: message)])
            case .posting, .showing:
                // The prompt ended before the server closed the notification: that close ends it.
                state.isAnswered = true
                return (state, [])
            default:
                return (state, [])
            }
        }
    }

    /// The reason `Closed` carries, and the words for the calls that name the notification later.
    static func wire(_ reason: NotificationCloseReason, dismissed: Bool) -> (UInt32, String) {
        switch reason {
        case _ where dismissed: (2, "was dismissed by the user")
        case .expired: (1, "expired")
        case .undefined: (4, "was closed by the notification server")
        case .dismissed, .closedByCall: (3, "was closed")
        }
    }

    private static func isOnServer(_ phase: TrackedNotification.Phase) -> Bool {
        switch phase {
        case .posting, .showing: true
        default: false
        }
    }
}
