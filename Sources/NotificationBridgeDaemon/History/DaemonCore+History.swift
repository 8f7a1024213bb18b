import DBusCore
import FoundationEssentials
import NotificationBridgeAPI
import NotificationModel
import NotificationStore

/// The history: each notification the daemon delivered is kept once it ends (``EndedPost``), within the user's
/// bounds (``HistoryBounds``), and listed by `ListHistory`.
extension DaemonCore {
    /// Keeps notification `id`, as `entry` was when it ended, in the history.
    func recordHistory(_ id: String, _ entry: TrackedNotification, _ ending: NotificationEnding) {
        recordHistory(endedPost(id, entry, ending))
    }

    /// The history entry of notification `id`, as `entry` was when it ended with `ending`, now.
    func endedPost(_ id: String, _ entry: TrackedNotification, _ ending: NotificationEnding) -> EndedPost {
        EndedPost(
            id: id, appName: entry.appName, poster: entry.poster, content: entry.content,
            actions: offeredActions(of: entry.content), route: entry.route, ending: ending,
            responseAction: ending == .responded ? entry.respondedAction : nil, endedAt: history.now)
    }

    /// Writes `ended` to the history, dropping what its bounds no longer keep in the same transaction.
    func recordHistory(_ ended: EndedPost) {
        historyChanges([ended]).map { _ = commits.submit($0) }
    }

    /// The changes that write `ended`, oldest first, to the history and keep it within its bounds; `nil` when it keeps
    /// nothing.
    ///
    /// Of more than the bound on entries keeps (a withdrawal of thousands), only the newest are written: the pruning
    /// in the same transaction would drop the others, and every older entry, at once. Encoding and writing 100,000
    /// entries to keep 500 was most of what a `WithdrawAll` of 100,000 cost.
    func historyChanges(_ ended: [EndedPost]) -> [DaemonStore.Change]? {
        guard history.bounds.keepsAny else { return nil }
        // Recorded anew (shown again and ended again): it may be answered again.
        for post in ended { history.recordedAnew(post.id) }
        var changes: [DaemonStore.Change] = []
        for post in ended.suffix(history.bounds.limit) {
            do {
                changes.append(.recordEnded(try EndedRow(id: post.id, endedAt: post.endedAt, post)))
            } catch {
                logger.warning(
                    "cannot keep a notification in the history",
                    metadata: ["notification.id": "\(post.id)", "error": "\(error)"])
            }
        }
        return changes + [history.pruning]
    }

    /// The actions `content` offered when it showed: its own, or those of its category then.
    func offeredActions(of content: NotificationContent) -> [NotificationAction] {
        guard content.actions.isEmpty, let categoryID = content.categoryID else { return content.actions }
        return categories[categoryID]?.actions ?? []
    }

    /// The history entry of `id`, within the bounds; `nil` when there is none.
    func storedEnded(_ id: String) async throws(DBusFailure) -> EndedPost? {
        let ended: EndedPost?
        do throws(NotificationStoreError) {
            ended = try await commits.storedHistoryEntry(EndedPost.self, id: id)
        } catch {
            throw storeFailure(error)
        }
        guard let ended, history.keeps(endedAt: ended.endedAt) else { return nil }
        return ended
    }

    /// `ListHistory(a{sv} filter)`: the ended notifications the filter selects for `caller`, newest first.
    func listHistory(_ filterValue: DBusValue, caller: String) async throws(DBusFailure) -> Listing {
        try checkRunning()
        var filter = try NotificationFilter(filterValue)
        let peer = await peer(of: caller)
        try confine(&filter, to: peer)
        let all: [EndedPost]
        do throws(NotificationStoreError) {
            all = try await commits.storedHistory(EndedPost.self)
        } catch {
            throw storeFailure(error)
        }
        // What ended before the cutoff is dropped at the next write; it is not listed meanwhile.
        let cutoff = history.cutoff
        let selected = all.prefix(history.bounds.limit).filter { ended in
            ended.endedAt >= cutoff
                && filter.selects(appName: ended.appName, poster: ended.poster, content: ended.content, caller: caller)
        }
        // Answerable as Act and Present judge it for this caller, each poster asked about once.
        var posters: [String: Bool] = [:]
        var connected: [Bool] = []
        for ended in selected where ended.ending.isAnswerable {
            connected.append(await posterIsConnected(ended, known: &posters))
        }
        var answers = connected.makeIterator()
        return .values(
            selected.map { ended in
                let posterIsConnected = ended.ending.isAnswerable ? answers.next() ?? false : false
                let answerable = answerRefusal(ended, by: peer, posterIsConnected: posterIsConnected) == nil
                return ended.listed(answerable: answerable).value
            })
    }

    /// The error for an id the history does not hold.
    static func notInHistory(_ id: String) -> DBusFailure {
        DBusFailure(
            name: BridgeError.unknownNotification,
            message: "no notification of the history has id \(quotedForMessage(id)) (it never ended, or it is older "
                + "than the history keeps); ListHistory lists them")
    }
}
