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

    private let target = Mutex<Target?>(nil)
    private let closing = Atomic<Bool>(false)

    /// From now on, Ctrl-C closes notification `id` and exits with `status` after printing `message`.
    func arm(client: BridgeClient, id: String, message: String, status: Int32) {
        target.withLock { $0 = Target(client: client, id: id, message: message, status: status) }
    }

    /// Handles one `SIGINT`: before anything is posted the program ends as an interrupted one does (130); while it
    /// waits, the notification is closed first. A second `SIGINT` while it closes is ignored.
    func interrupted() {
        guard let target = target.withLock({ $0 }) else {
            fflush(nil)
            _exit(130)
        }
        guard !closing.exchange(true, ordering: .relaxed) else { return }
        printError(target.message)
        Task {
            // Closing is best effort: the notification may have closed meanwhile, and Ctrl-C must end the wait.
            _ = try? await target.client.proxy.withdraw(id: target.id)
            fflush(nil)
            _exit(target.status)
        }
    }
}
