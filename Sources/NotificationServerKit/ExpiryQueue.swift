/// The deadlines at which live notifications expire, earliest first: the one timer queue that
/// ``NotificationServer/run()`` sleeps on, instead of a timer per notification.
struct ExpiryQueue: Sendable {
    /// Sorted by deadline; among equal deadlines, in the order they were set.
    private var entries: [(deadline: ContinuousClock.Instant, id: UInt32)] = []

    /// The earliest deadline, or `nil` when nothing expires.
    var earliest: ContinuousClock.Instant? { entries.first?.deadline }

    /// Sets the deadline of notification `id`, replacing the one it had.
    mutating func set(_ id: UInt32, at deadline: ContinuousClock.Instant) {
        remove(id)
        let index = entries.firstIndex { $0.deadline > deadline } ?? entries.endIndex
        entries.insert((deadline, id), at: index)
    }

    /// Forgets the deadline of notification `id`, if it had one.
    mutating func remove(_ id: UInt32) {
        entries.removeAll { $0.id == id }
    }

    /// Removes the notifications whose deadline is at or before `now`, and returns them, earliest first.
    mutating func removeDue(at now: ContinuousClock.Instant) -> [UInt32] {
        let count = entries.firstIndex { $0.deadline > now } ?? entries.endIndex
        defer { entries.removeFirst(count) }
        return entries.prefix(count).map(\.id)
    }
}
