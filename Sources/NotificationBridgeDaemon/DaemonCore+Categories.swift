import NotificationBridge
import NotificationModel

/// The registered categories, which the daemon owns, and taking a notification off the server.
extension DaemonCore {
    /// Asks the server to close a notification: after its `Notify` has been answered, when one is out, since the turn
    /// is taken now, in the order of the calls.
    ///
    /// The close is queued (``ServerCloses``): one job sends the queued closes, so that a withdrawal of thousands
    /// costs no task per close.
    func takeOffServer(_ id: String) {
        let session = self.session
        let closes = serverCloses
        guard closes.enqueue(session.reserveTurn(for: id)) else { return }
        let queued = jobs.yield {
            await closes.send { turn in await session.withdraw(id: turn.id, turn: turn) }
        }
        // Stopping: the job never runs.
        if case .terminated = queued { closes.abandon() }
    }
}
