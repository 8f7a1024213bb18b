import FoundationEssentials
import NotificationStore

/// What the daemon keeps of its history besides the rows on disk: how much is kept (``bounds``), the clock it is
/// measured by, and the entries answered with `Act` in this run whose answer may not be on disk yet. A plain value:
/// the daemon keeps one and asks it.
struct HistoryLedger: Sendable {
    /// How much of the history is kept.
    var bounds = HistoryBounds()
    /// The time a notification ends at, for its history entry and the history's bound by age.
    var clock: @Sendable () -> Date = { Date() }
    /// The entries answered with `Act` in this run: a second `Act` is refused at once, before the first answer is on
    /// disk.
    private var answeredLater: Set<String> = []

    /// A ledger of `bounds`, measured by `clock`.
    init(bounds: HistoryBounds = HistoryBounds(), clock: @escaping @Sendable () -> Date = { Date() }) {
        self.bounds = bounds
        self.clock = clock
    }

    /// The time now, by ``clock``.
    var now: Date { clock() }

    /// The time before which an entry is no longer kept, now.
    var cutoff: Date { bounds.cutoff(at: clock()) }

    /// Whether an entry that ended at `endedAt` is still kept.
    func keeps(endedAt: Date) -> Bool { endedAt >= cutoff }

    /// The change that drops what the bounds no longer keep.
    var pruning: DaemonStore.Change {
        .pruneEnded(endedBefore: cutoff, keeping: bounds.limit)
    }

    /// Whether entry `id` was answered with `Act` in this run.
    func wasAnsweredLater(_ id: String) -> Bool { answeredLater.contains(id) }

    /// Entry `id` was answered with `Act`.
    mutating func answeredLater(_ id: String) { answeredLater.insert(id) }

    /// Entry `id` is recorded anew (shown again, and ended again): it may be answered again.
    mutating func recordedAnew(_ id: String) { answeredLater.remove(id) }
}
