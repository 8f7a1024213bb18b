import NotificationBridge
import NotificationBridgeAPI
import NotificationModel
import NotificationScheduling

/// How a tracked notification moves on when the server session reports on it, or a call acts on it: a pure function
/// from its phase and the event to its next phase and the effects, which ``DaemonCore`` performs. It is the one way a
/// phase changes (``TrackedNotification/handle(_:id:)``). Spec-tested as a table, with no bus.
enum TrackedTransition {
    /// What happened to the notification.
    enum Event: Sendable {
        /// It was scheduled, or scheduled again (a replacement, a repeat): one that ended waits for its firing.
        case scheduled
        /// It came due while its app was attached in the foreground, and was handed to the app with `Fired`.
        case handedToApp(ScheduledPost)
        /// Its `Notify` goes out: it came due, was released from hold, or its app presents it.
        case sent
        /// Its `Notify` found no server, or the server did not answer in time: it waits for one to show it.
        case awaitingServer(ScheduledFiring<ScheduledPost>)
        /// The do-not-disturb gate holds it back, at `order` among the held ones.
        case held(ScheduledFiring<ScheduledPost>, order: UInt64)
        /// The user put it off with a snooze button: it waits for its snooze to end, as a scheduled one.
        case snoozed
        /// It ends for the reason `why` gives, where no event above says how (it was dropped, could not be shown,
        /// saved or snoozed); the daemon fails its waiting calls and tells its poster itself.
        case ended(String)
        /// It left the server; `acted` says whether the user acted on it first, `dismissed` whether the close counts
        /// as the user dismissing it.
        case closed(NotificationCloseReason, acted: Bool, dismissed: Bool)
        /// The prompt for typed text ended without any.
        case promptEnded
        /// The server answered its `Notify`: it shows.
        case shown
        /// Its `Notify` failed, for the reason `message` gives; `replacedOneOnServer` says whether it replaced a
        /// notification that the server still shows, which then goes on in its place.
        case notShown(message: String, replacedOneOnServer: Bool)
        /// A response to it was delivered (the user acted, replied or, where reported, dismissed it).
        case responded
        /// `Withdraw` (or `WithdrawAll`) named it; its scheduled firings are cancelled already.
        case withdrawn
        /// `Withdraw` named it while an earlier notification of its thread takes its place on the server: it ends as
        /// withdrawn, but is not taken off the server.
        case handedOver
        /// A newer notification of its thread takes its place on the server: it waits behind it.
        case stacked
        /// It comes back on the server in the place of its thread's newest, which was withdrawn.
        case broughtBack
        /// The newer notification of its thread that was to take its place on the server could not be shown: the
        /// server still shows this one, which goes on as the thread's notification on the screen.
        case keptOnServer
        /// The notification that showed in its place left the server (`dismissed` says whether the user dismissed
        /// it): the whole thread ends with it.
        case threadClosed(NotificationCloseReason, dismissed: Bool)
    }

    /// How a notification comes to be tracked: the first step of its life, which has no phase before it.
    enum Start: Sendable, Equatable {
        /// Its `Notify` goes out now: a `Post`, one held back by the do-not-disturb gate (which holds it next), or a
        /// history entry presented again.
        case posted
        /// The scheduler holds it until it comes due: a `Post` with a trigger, or one brought back from the store.
        case scheduled
        /// It was delivered before a restart of the daemon, and its server still runs: on the server, or (`stacked`)
        /// behind the newest of its thread.
        case restored(stacked: Bool)
    }

    /// The state a notification starts in: nothing answered, no response delivered yet.
    static func first(_ start: Start, reportsDismissal: Bool) -> State {
        let phase: TrackedNotification.Phase =
            switch start {
            case .posted: .posting
            case .scheduled: .pending
            case .restored(let stacked): stacked ? .stacked : .showing
            }
        return State(phase: phase, isAnswered: false, reportsDismissal: reportsDismissal)
    }

    /// What the daemon does besides changing the phase.
    enum Effect: Sendable, Equatable {
        /// Forgets its route on disk: it is no longer on the server.
        case forgetDelivered
        /// Sends `Closed(id, reason)` to the poster.
        case emitClosed(reason: UInt32)
        /// Ends it: the waiting calls fail with this message (or the phase's own when `nil`).
        case end(why: String, waitsMessage: String?)
        /// Keeps its route on disk, so that a response after a restart of the daemon still reaches its handler.
        case keepDelivered
        /// Keeps it on disk as delivered behind the newest of its thread, so that a restart of the daemon lists it, and
        /// brings it back, as before.
        case keepStacked
        /// Puts back the notification it replaced, as it was.
        case restoreReplaced
        /// Asks the server to close it (once the server has given it an id, if its `Notify` is still out).
        case takeOffServer
        /// Keeps it in the history, ended this way: it was delivered and is over.
        case recordHistory(NotificationEnding)
    }

    /// The part of a tracked notification a transition reads and writes.
    struct State: Sendable {
        var phase: TrackedNotification.Phase
        /// Whether the response to what the server shows has come, or will not come.
        var isAnswered: Bool
        /// Whether a dismissal comes as a `dismiss` response.
        var reportsDismissal: Bool
        /// The action id of the response delivered to what the server shows, if one was.
        var respondedAction: String? = nil

        /// How a notification in this state ends when nothing else says: by its response, if it had one.
        fileprivate func ending(otherwise: NotificationEnding) -> NotificationEnding {
            guard let respondedAction else { return otherwise }
            return respondedAction == NotificationResponse.dismissActionID ? .dismissed : .responded
        }
    }

    /// The next state and the effects, for notification `id` in `state` on `event`.
    static func next(_ state: State, on event: Event, id: String) -> (State, [Effect]) {
        var state = state
        switch event {
        case .scheduled:
            if case .ended = state.phase { state.phase = .pending }
            return (state, [])
        case .handedToApp(let post):
            state.phase = .handedToApp(post)
            return (state, [])
        case .sent:
            state.phase = .posting
            state.isAnswered = false
            state.respondedAction = nil
            return (state, [])
        case .awaitingServer(let firing):
            state.phase = .awaitingServer(firing)
            return (state, [])
        case .held(let firing, let order):
            state.phase = .held(firing, order: order)
            state.isAnswered = false
            return (state, [])
        case .snoozed:
            state.phase = .pending
            state.isAnswered = false
            return (state, [])
        case .ended(let why):
            state.phase = .ended(why)
            state.isAnswered = false
            return (state, [])
        case .closed(let closeReason, let acted, let dismissed):
            guard isOnServer(state.phase) else { return (state, []) }
            let (reason, why) = wire(closeReason, dismissed: dismissed)
            // After an action the response comes by itself (from the prompt, or after an unlock); a reported
            // dismissal comes as a response too. `Closed` then waits for it: `Responded` comes first on every path.
            let responseFollows = acted || (dismissed && state.reportsDismissal)
            if responseFollows, !state.isAnswered {
                state.phase = .responding(why, closeReason: reason)
                return (state, [.forgetDelivered])
            }
            state.phase = .ended(why)
            state.isAnswered = false
            return (
                state,
                [
                    .forgetDelivered, .emitClosed(reason: reason), .end(why: why, waitsMessage: nil),
                    .recordHistory(state.ending(otherwise: ending(closeReason, dismissed: dismissed))),
                ]
            )
        case .promptEnded:
            switch state.phase {
            case .responding(let why, let reason):
                state.phase = .ended(why)
                state.isAnswered = false
                let message = "notification '\(id)' \(why); the prompt for text ended without any"
                // The user left the prompt without answering: the notification may still be answered later.
                return (
                    state,
                    [.emitClosed(reason: reason), .end(why: why, waitsMessage: message), .recordHistory(.closed)]
                )
            case .posting, .showing:
                // The prompt ended before the server closed the notification: that close ends it.
                state.isAnswered = true
                return (state, [])
            default:
                return (state, [])
            }
        case .shown:
            return shown(state)
        case .notShown(let message, let replacedOneOnServer):
            // Only a Notify still out decides: one withdrawn or closed meanwhile has ended already.
            guard case .posting = state.phase else { return (state, []) }
            if replacedOneOnServer { return (state, [.restoreReplaced]) }
            let why = "could not be shown (\(message))"
            state.phase = .ended(why)
            state.isAnswered = false
            return (state, [.end(why: why, waitsMessage: nil)])
        case .responded:
            // A response that a close was waiting for ends the notification; its waiting calls get the response.
            if case .responding(let why, let reason) = state.phase {
                state.phase = .ended(why)
                // After `Responded`, which the caller sends first (``DaemonCore/respond(_:)``).
                return (state, [.emitClosed(reason: reason), .recordHistory(state.ending(otherwise: .responded))])
            }
            state.isAnswered = true
            return (state, [])
        case .withdrawn:
            return withdrawn(state, id: id)
        case .handedOver:
            guard isOnServer(state.phase) else { return withdrawn(state, id: id) }
            var (state, effects) = withdrawn(state, id: id)
            effects.removeAll { $0 == .takeOffServer }
            return (state, effects)
        case .stacked:
            guard isOnServer(state.phase) else { return (state, []) }
            state.phase = .stacked
            return (state, [.keepStacked])
        case .broughtBack:
            guard case .stacked = state.phase else { return (state, []) }
            state.phase = .posting
            state.isAnswered = false
            return (state, [])
        case .keptOnServer:
            // Only one still waiting behind the refused one: one brought back or ended meanwhile has moved on.
            guard case .stacked = state.phase else { return (state, []) }
            state.phase = .showing
            return (state, [.keepDelivered])
        case .threadClosed(let closeReason, let dismissed):
            guard case .stacked = state.phase else { return (state, []) }
            let (reason, why) = wire(closeReason, dismissed: dismissed)
            state.phase = .ended(why)
            state.isAnswered = false
            return (
                state,
                [
                    .forgetDelivered, .emitClosed(reason: reason), .end(why: why, waitsMessage: nil),
                    .recordHistory(ending(closeReason, dismissed: dismissed)),
                ]
            )
        }
    }

    /// The server took the notification's `Notify`.
    private static func shown(_ state: State) -> (State, [Effect]) {
        var state = state
        switch state.phase {
        case .posting:
            state.phase = .showing
        case .ended, .stacked:
            // Withdrawn while the server took it: the withdrawal, queued behind this Notify, takes it off the screen.
            // Or a newer notification of its thread took its place meanwhile, whose route is the one kept.
            return (state, [])
        case .responding:
            // Closed on the server before its Notify was answered, with a response to come: its route is kept all
            // the same, for that response.
            break
        case .showing:
            // Shown again in place (a refresh, a take-over): its route is kept under the id the server gave.
            break
        case .pending, .awaitingServer, .handedToApp, .held:
            // Put off (snoozed, held) while its Notify was out: it is not delivered, and keeping its route would have
            // a restart take it for one on the screen.
            return (state, [])
        }
        return (state, [.keepDelivered])
    }

    /// The notification was withdrawn; one the server shows, or is about to, is taken off it.
    private static func withdrawn(_ state: State, id: String) -> (State, [Effect]) {
        var state = state
        let why = "was withdrawn"
        let end = Effect.end(why: why, waitsMessage: "notification '\(id)' was withdrawn before the user responded")
        switch state.phase {
        case .ended:
            return (state, [])
        case .posting, .showing:
            state.phase = .ended(why)
            state.isAnswered = false
            return (state, [end, .emitClosed(reason: 3), .forgetDelivered, .takeOffServer, .recordHistory(.withdrawn)])
        case .stacked:
            // Delivered, though not on the server: its poster learns that it closed.
            state.phase = .ended(why)
            state.isAnswered = false
            return (state, [end, .emitClosed(reason: 3), .forgetDelivered, .recordHistory(.withdrawn)])
        case .responding(_, let reason):
            // It left the server already; `Closed`, held for the response, says how.
            state.phase = .ended(why)
            state.isAnswered = false
            return (state, [end, .emitClosed(reason: reason), .recordHistory(.withdrawn)])
        case .awaitingServer, .handedToApp, .pending, .held:
            state.phase = .ended(why)
            state.isAnswered = false
            return (state, [end])
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

    /// How a close the user did not answer ends a notification, for its history.
    static func ending(_ reason: NotificationCloseReason, dismissed: Bool) -> NotificationEnding {
        switch reason {
        case _ where dismissed: .dismissed
        case .expired: .expired
        case .undefined, .dismissed, .closedByCall: .closed
        }
    }

    private static func isOnServer(_ phase: TrackedNotification.Phase) -> Bool {
        switch phase {
        case .posting, .showing: true
        default: false
        }
    }
}
