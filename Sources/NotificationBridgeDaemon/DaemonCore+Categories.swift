import NotificationBridge
import NotificationModel

/// The registered categories, which the daemon owns, and taking a notification off the server.
extension DaemonCore {
    /// Asks the server to close a notification: after its `Notify` has been answered, when one is out, since the turn
    /// is taken now, in the order of the calls.
    func takeOffServer(_ id: String) {
        let session = self.session
        let turn = session.reserveTurn(for: id)
        jobs.yield { await session.withdraw(id: id, turn: turn) }
    }
}
