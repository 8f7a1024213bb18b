import DBusCore
import Synchronization

/// The answer to one `Notify`, given once: by the server's reply, or by the timeout that comes first.
final class NotifyAnswerSlot: Sendable {
    typealias Answer = Result<(id: UInt32, server: String), any Error>

    private enum State {
        case waiting(CheckedContinuation<Answer, Never>?)
        case answered(Answer)
    }

    private let state = Mutex<State>(.waiting(nil))

    /// Gives the answer; returns `false` when one was given already (the reply came after the timeout).
    @discardableResult
    func fulfil(_ answer: Answer) -> Bool {
        let waiter = state.withLock { state -> CheckedContinuation<Answer, Never>?? in
            guard case .waiting(let waiter) = state else { return nil }
            state = .answered(answer)
            return .some(waiter)
        }
        guard let waiter else { return false }
        waiter?.resume(returning: answer)
        return true
    }

    /// Whether the answer was given.
    var isAnswered: Bool {
        state.withLock { state in
            if case .answered = state { return true }
            return false
        }
    }

    /// The answer, once given.
    var value: Answer {
        get async {
            await withCheckedContinuation { continuation in
                let given = state.withLock { state -> Answer? in
                    switch state {
                    case .answered(let answer): return answer
                    case .waiting: state = .waiting(continuation)
                    }
                    return nil
                }
                if let given { continuation.resume(returning: given) }
            }
        }
    }
}

/// A `Notify` whose caller waits for the answer, and when the wait ends.
struct AwaitedAnswer: Sendable {
    /// Where the answer is given.
    var slot: NotifyAnswerSlot
    /// When the caller is told that the server did not answer.
    var due: ContinuousClock.Instant
}
