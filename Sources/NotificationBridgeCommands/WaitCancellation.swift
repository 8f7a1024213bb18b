import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What Ctrl-C does while a command waits for a notification's response: the notification is closed, as
/// `notify-send -w` does, instead of being left on the screen by a program that is no longer there to answer it.
///
/// The command runs with `SIGINT` taken by its event loop (``runToEnd(signals:_:)``); ``interrupted()`` is called
/// there, on the loop's thread, with each `SIGINT`.
final class WaitCancellation: Sendable {
    /// What to do: close the notification through `client`, say `message` on standard error, exit with `status`.
    private struct Target {
        var client: BridgeClient
        var id: String
        var message: String
        var status: Int32
    }

    /// The one of `notification-bridge`'s commands.
    static let shared = WaitCancellation()

    private enum State {
        /// Nothing posted: Ctrl-C ends the program as usual.
        case idle
        /// A post is on its way and its id unknown yet; `interrupted` once Ctrl-C came meanwhile.
        case posting(interrupted: Bool)
        case armed(Target)
        case closing
    }

    private let state = Mutex<State>(.idle)

    /// A post whose response the command waits for is on its way: a Ctrl-C from now on closes it once its id is known.
    func posting() {
        state.withLock { $0 = .posting(interrupted: false) }
    }

    /// From now on, Ctrl-C closes notification `id` and exits with `status` after printing `message`; at once when
    /// Ctrl-C came while it was being posted.
    func arm(client: BridgeClient, id: String, message: String, status: Int32) {
        let target = Target(client: client, id: id, message: message, status: status)
        let interruptedWhilePosting = state.withLock { state in
            if case .posting(true) = state {
                state = .closing
                return true
            }
            state = .armed(target)
            return false
        }
        if interruptedWhilePosting { close(target) }
    }

    /// Handles one `SIGINT`: before anything is posted the program ends as an interrupted one does (130); while it
    /// waits, the notification is closed first. A second `SIGINT` while it closes is ignored.
    func interrupted() {
        let action: Target?? = state.withLock { state in
            switch state {
            case .idle: return .some(nil)
            case .posting:
                state = .posting(interrupted: true)
                return nil
            case .armed(let target):
                state = .closing
                return .some(target)
            case .closing: return nil
            }
        }
        switch action {
        case .some(nil):
            fflush(nil)
            _exit(130)
        case .some(let target?):
            close(target)
        case nil:
            return
        }
    }

    private func close(_ target: Target) {
        printError(target.message)
        Task {
            // Closing is best effort: the notification may have closed meanwhile, and Ctrl-C must end the wait.
            _ = try? await target.client.proxy.withdraw(id: target.id)
            fflush(nil)
            _exit(target.status)
        }
    }
}
