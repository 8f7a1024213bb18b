import DBusCore
import Logging
import NotificationBridgeAPI

/// The daemon's notifications by id: one ``TrackedNotification`` each.
///
/// Finished entries (ended, nothing to come, nobody waiting) stay for the calls that name them late — a
/// `WaitForResponse` that comes after the response, a `Withdraw` of one that already closed — and the oldest ended are
/// forgotten first beyond ``finishedCapacity``, so the table does not grow with the number of notifications ever
/// posted. A forgotten id is remembered a while longer (``ForgottenIDs``), so that a late call learns the notification
/// expired (``missing(_:)``) rather than that its id is wrong; a response kept for a `WaitForResponse` that is let go
/// this way is logged.
///
/// The entries that `WaitForResponse` calls wait for are indexed, so that a connection leaving the bus (which happens
/// all day on a desktop) costs the calls it had, not a walk over every pending notification.
struct NotificationTable: Sendable {
    static let finishedCapacity = 1024

    private var entries: [String: TrackedNotification] = [:]
    /// Ids of finished entries, oldest first from `finishedStart`; may hold ids that were revived or removed since.
    /// Those before `finishedStart` are let go of already, and dropped in one move once they are as many as the
    /// capacity: taking each out at the front moved the whole list, at every notification that ended.
    private var finished: [String] = []
    private var finishedStart = 0
    /// How many times each id is in `finished` from `finishedStart`: whether an id finished again later, without a
    /// search of the list at every notification that ended.
    private var finishedCounts: [String: Int] = [:]
    /// Ids of the entries with at least one waiting call.
    private(set) var awaited: Set<String> = []
    /// How many entries are scheduled (``TrackedNotification/isScheduled``), by app name: what the bound of
    /// ``ScheduledLimit`` counts, without a walk over every entry.
    private var scheduledByApp: [String: Int] = [:]
    /// How many entries show or wait to show (``ShowingLimit/counts(_:)``), by app name: what the bound of
    /// ``ShowingLimit`` counts.
    private var showingByApp: [String: Int] = [:]
    /// Ids of the finished entries let go of.
    private var forgotten = ForgottenIDs()
    /// Where letting go of a kept response is logged.
    var logger: Logger?

    /// How many `WaitForResponse` calls wait, over all entries.
    var waitCount: Int { awaited.reduce(0) { $0 + (entries[$1]?.waits.count ?? 0) } }

    subscript(id: String) -> TrackedNotification? {
        get { entries[id] }
        set {
            let old = entries[id]
            let wasFinished = old?.isFinished == true
            if newValue?.waits.isEmpty == false { awaited.insert(id) } else { awaited.remove(id) }
            Self.count(&scheduledByApp, from: old, to: newValue) { $0.isScheduled }
            Self.count(&showingByApp, from: old, to: newValue, ShowingLimit.counts)
            if old == nil, newValue != nil { forgotten.remove(id) }
            entries[id] = newValue
            if newValue == nil { shrinkIfSparse() }
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
        let index = entries.index(forKey: id)
        if let index, entries.values[index].isScheduled { return }
        entries[id, default: entry()].isScheduled = true
        scheduledByApp[entries[id]!.appName, default: 0] += 1
    }

    /// How many notifications of the app `appName` are scheduled.
    func scheduledCount(of appName: String) -> Int {
        scheduledByApp[appName] ?? 0
    }

    /// How many notifications are scheduled, of every app.
    var scheduledCount: Int { scheduledByApp.values.reduce(0, +) }

    /// How many notifications of the app `appName` show or wait to show (``ShowingLimit/counts(_:)``).
    func showingCount(of appName: String) -> Int {
        showingByApp[appName] ?? 0
    }

    /// Keeps `counts` (by app name, of the entries `isCounted` accepts) in step with an entry that changes from `old`
    /// to `new`.
    private static func count(
        _ counts: inout [String: Int], from old: TrackedNotification?, to new: TrackedNotification?,
        _ isCounted: (TrackedNotification) -> Bool
    ) {
        let was = old.flatMap { isCounted($0) ? $0.appName : nil }
        let now = new.flatMap { isCounted($0) ? $0.appName : nil }
        guard was != now else { return }
        if let was {
            let count = (counts[was] ?? 0) - 1
            counts[was] = count > 0 ? count : nil
        }
        if let now { counts[now, default: 0] += 1 }
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
        finishedCounts[id, default: 0] += 1
        while finished.count - finishedStart > Self.finishedCapacity {
            let oldest = finished[finishedStart]
            finishedStart += 1
            let later = (finishedCounts[oldest] ?? 1) - 1
            finishedCounts[oldest] = later == 0 ? nil : later
            guard let entry = entries[oldest], entry.isFinished, later == 0 else { continue }
            entries[oldest] = nil
            shrinkIfSparse()
            forgotten.insert(oldest)
            if !entry.keptResponses.isEmpty { reportLettingGo(oldest, entry) }
        }
        if finishedStart >= Self.finishedCapacity {
            finished.removeFirst(finishedStart)
            finishedStart = 0
        }
    }

    /// Logs that the responses kept for `entry` are let go of: at notice level when one of them reached nobody (its
    /// poster had left, and no app was attached), at debug level when each went out already as `Responded`.
    private func reportLettingGo(_ id: String, _ entry: TrackedNotification) {
        let undelivered = entry.keptResponses.filter { $0.textRecipient == .firstCall }.count
        let message =
            "let go of a response kept for WaitForResponse: the daemon keeps the last "
            + "\(Self.finishedCapacity) ended notifications, the oldest ended go first; a WaitForResponse for it now "
            + "fails with Error.Expired"
        let metadata: Logger.Metadata = [
            "notification.id": "\(id)", "notification.app": "\(entry.appName)",
            "notification.kept-responses": "\(entry.keptResponses.count)",
            "notification.undelivered-responses": "\(undelivered)",
        ]
        if undelivered > 0 {
            logger?.notice("\(message)", metadata: metadata)
        } else {
            logger?.debug("\(message)", metadata: metadata)
        }
    }

    /// The capacity below which the table never gives storage back.
    private static let keptCapacity = 4 * finishedCapacity

    /// Gives the dictionary's storage back once under a quarter of it is used, after a large withdrawal (a dictionary
    /// never shrinks by itself). Each shrink copies what is left, and the next needs the table to lose three quarters
    /// again, so removals stay O(1) on average.
    private mutating func shrinkIfSparse() {
        guard entries.capacity > Self.keptCapacity, entries.count * 4 < entries.capacity else { return }
        entries = Dictionary(uniqueKeysWithValues: entries.lazy.map { ($0.key, $0.value) })
    }

    /// Whether `id` named an entry the table let go of (one of the last ``ForgottenIDs/defaultCapacity``).
    func isForgotten(_ id: String) -> Bool {
        entries[id] == nil && forgotten.contains(id)
    }

    /// The failure of a call that names `id`, which has no entry: `Error.Expired` when the table let it go (it ended
    /// long ago), else `Error.UnknownNotification`.
    func missing(_ id: String) -> DBusFailure {
        guard isForgotten(id) else {
            return DBusFailure(
                name: BridgeError.unknownNotification,
                message: "no notification has id \(quotedForMessage(id)); use an id returned when it was posted")
        }
        return DBusFailure(
            name: BridgeError.expired,
            message: "notification \(quotedForMessage(id)) ended long ago and is no longer kept, nor any response it "
                + "had (the daemon keeps the last \(Self.finishedCapacity) ended notifications, the oldest ended go "
                + "first); call WaitForResponse soon after the notification ends, or take responses from the "
                + "Responded signal")
    }
}
