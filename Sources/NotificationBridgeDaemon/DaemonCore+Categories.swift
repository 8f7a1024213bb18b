import NotificationBridge
import NotificationModel

/// The registered categories, which the daemon owns, and taking a notification off the server.
extension DaemonCore {
    /// Registers or replaces a category, once it and the set it joins are valid.
    func register(_ category: NotificationCategory) throws(NotificationValidationError) {
        try category.validate()
        var updated = categories
        updated[category.id] = category
        try NotificationCategory.validate(Array(updated.values))
        categories = updated
    }

    /// The registered categories, by id.
    var registeredCategories: [NotificationCategory] {
        categories.values.sorted { $0.id < $1.id }
    }

    /// Asks the server to close a notification: after its `Notify` has been answered, when one is out, since the turn
    /// is taken now, in the order of the calls.
    func takeOffServer(_ id: String) {
        let session = self.session
        let turn = session.reserveTurn(for: id)
        let release = closesOut
        release.started()
        let queued = jobs.yield {
            await session.withdraw(id: id, turn: turn)
            release.finished()
        }
        // Stopping: the job never runs.
        if case .terminated = queued { release.finished() }
    }
}
