/// The wait of `notify-send -w` or `-A` once the notification is shown, as libnotify's notify-send waits: one function
/// per event returns what to do, and nothing else changes the wait's phase.
///
/// | event | while waiting | effects |
/// |---|---|---|
/// | an action of the notification | finished | report it (print, write the descriptors), close, finish |
/// | an action it does not have | waiting | warn, except for the server's click on the body |
/// | an activation token | waiting, token kept | — |
/// | closed | finished | finish |
/// | Ctrl-C | finished | say so, close, finish |
/// | `-t` passed | finished | say so, finish (the notification stays) |
///
/// Once finished, every event is ignored.
struct NotifySendWait {
    /// What happens to the notification while the program waits.
    enum Event: Equatable, Sendable {
        /// The server reports the action named `key`.
        case invoked(key: String)
        /// The server sends the activation token for the action it reports next.
        case activationToken(String)
        /// The notification closed.
        case closed
        /// The user pressed Ctrl-C (SIGINT).
        case interrupted
        /// The time `-t` gave passed.
        case timedOut
    }

    /// What the program does.
    enum Effect: Equatable, Sendable {
        /// Print the action's name, write it to `--selected-action-fd`, and the token to `--activation-token-fd`.
        case report(action: String, activationToken: String?)
        /// Say this on standard error.
        case say(String)
        /// Close the notification at the server.
        case close
        /// Stop waiting.
        case finish
    }

    private enum Phase {
        case waiting(activationToken: String?)
        case finished
    }

    private var phase = Phase.waiting(activationToken: nil)
    private let actions: NotifySendActions
    private let clickKey: String

    /// A wait for a notification with `actions`; `clickKey` is the action the server reports for a click on the body
    /// when the notification has no such action (`default`, or the portal's `default-action`): it is not warned about.
    init(actions: NotifySendActions, clickKey: String) {
        self.actions = actions
        self.clickKey = clickKey
    }

    /// Whether the wait is over.
    var isFinished: Bool {
        if case .finished = phase { return true }
        return false
    }

    /// Takes one event and returns what to do, in order.
    mutating func handle(_ event: Event) -> [Effect] {
        guard case .waiting(let token) = phase else { return [] }
        switch event {
        case .invoked(let key):
            guard actions.action(named: key) != nil else {
                return key.lowercased() == clickKey.lowercased() ? [] : [.say("Received unknown action \(key)")]
            }
            phase = .finished
            return [.report(action: key, activationToken: token), .close, .finish]
        case .activationToken(let newToken):
            phase = .waiting(activationToken: newToken)
            return []
        case .closed:
            phase = .finished
            return [.finish]
        case .interrupted:
            phase = .finished
            return [.say("Wait cancelled, closing notification"), .close, .finish]
        case .timedOut:
            phase = .finished
            return [.say("Wait timeout expired"), .finish]
        }
    }
}
