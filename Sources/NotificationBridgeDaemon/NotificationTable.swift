/// The daemon's notifications by id: one ``TrackedNotification`` each.
///
/// Finished entries (ended, nothing to come, nobody waiting) stay for the calls that name them late — a
/// `WaitForResponse` that comes after the response, a `Withdraw` of one that already closed — and the oldest are
/// forgotten beyond ``finishedCapacity``, so the table does not grow with the number of notifications ever posted.
///
/// The entries that `WaitForResponse` calls wait for are indexed, so that a connection leaving the bus (which happens
/// all day on a desktop) costs the calls it had, not a walk over every pending notification.
struct NotificationTable: Sendable {
    static let finishedCapacity = 1024

    private var entries: [String: TrackedNotification] = [:]
    /// Ids of finished entries, oldest first; may hold ids that were revived or removed since.
    private var finished: [String] = []
    /// Ids of the entries with at least one waiting call.
    private(set) var awaited: Set<String> = []

    /// How many `WaitForResponse` calls wait, over all entries.
    var waitCount: Int { awaited.reduce(0) { $0 + (entries[$1]?.waits.count ?? 0) } }

    subscript(id: String) -> TrackedNotification? {
        get { entries[id] }
        set {
            let wasFinished = entries[id]?.isFinished == true
            if newValue?.waits.isEmpty == false { awaited.insert(id) } else { awaited.remove(id) }
            entries[id] = newValue
            // Noted once per time it finishes, not at every later change of a finished entry.
            if newValue?.isFinished == true, !wasFinished { noteFinished(id) }
        }
    }

    /// Makes room for `count` more entries, so that restoring thousands does not grow the table step by step.
    mutating func reserveCapacity(adding count: Int) {
        entries.reserveCapacity(entries.count + count)
    }

    /// Marks the entry `id` scheduled in place, adding `entry()` first when there is none: one lookup each, for a
    /// restore of thousands. A scheduled entry is not finished, and marking one changes no call's wait.
    mutating func markScheduled(_ id: String, adding entry: () -> TrackedNotification) {
        entries[id, default: entry()].isScheduled = true
    }

    /// Whether the entry `id` is scheduled (``TrackedNotification/isScheduled``), read without copying the entry.
    func isScheduled(_ id: String) -> Bool {
        guard let index = entries.index(forKey: id) else { return false }
        return entries.values[index].isScheduled
    }

    /// Changes the entry `id` in place, if there is one.
    mutating func update(_ id: String, _ change: (inout TrackedNotification) -> Void) {
        guard var entry = entries[id] else { return }
        change(&entry)
        self[id] = entry
    }

    /// Every entry that is not finished.
    var live: some Sequence<(key: String, value: TrackedNotification)> {
        entries.lazy.filter { !$0.value.isFinished }
    }

    private mutating func noteFinished(_ id: String) {
        finished.append(id)
        while finished.count > Self.finishedCapacity {
            let oldest = finished.removeFirst()
            if entries[oldest]?.isFinished == true, !finished.contains(oldest) { entries[oldest] = nil }
        }
    }
}
