import DBusCore
import FoundationEssentials
import NotificationBridge
import NotificationBridgeAPI
import NotificationModel
import NotificationScheduling
import NotificationStore

/// `Withdraw`, `WithdrawAll`, `ListDelivered` and `ListPending`: answered from the table, never waiting on the server.
extension DaemonCore {
    /// `Withdraw(s id)`: cancels a scheduled notification and closes a showing one. The call is answered once the
    /// cancellation is on disk; the server is asked to close it meanwhile.
    func withdraw(id: String, call: DBusMethodCall) async throws(DBusFailure) {
        try checkRunning()
        try NotificationID.check(id)
        guard let entry = table[id] else {
            // Ended so long ago that it was let go of: already gone is what was asked for.
            if table.isForgotten(id) { return call.reply([]) }
            throw table.missing(id)
        }
        try checkAccess(to: id, entry, by: await peer(of: call.sender), "withdraw")
        // Already gone is what was asked for.
        var withdrawal = Withdrawal()
        withdrawEntry(id, unscheduled: await unschedule(id), into: &withdrawal)
        reply(call, after: commits.submit(withdrawal.changes(historyChanges(withdrawal.ended))))
    }

    /// `WithdrawAll(a{sv} filter)`: returns the ids it withdrew.
    func withdrawAll(_ filterValue: DBusValue, call: DBusMethodCall) async throws(DBusFailure) {
        try checkRunning()
        var filter = try NotificationFilter(filterValue)
        try confine(&filter, to: await peer(of: call.sender))
        let selection = selected(filter, caller: call.sender) { $0.isDelivered || $0.isScheduled || $0.isHeld }
        // The earlier notifications of a thread first, and its summary updated once for them all: withdrawing the
        // one shown first would bring each of them back in turn.
        let ids = selection.filter { $0.entry.isStacked }.map(\.id) + selection.filter { !$0.entry.isStacked }.map(\.id)
        // The scheduler is asked once for them all; then none waits for anything until the answer.
        let unscheduled = await unschedule(ids)
        var withdrawal = Withdrawal()
        var touched: Set<ThreadBook.Key> = []
        for id in ids {
            if let key = threads.key(of: id) { touched.insert(key) }
            withdrawEntry(id, unscheduled: unscheduled[id] ?? [], refreshingThread: false, into: &withdrawal)
        }
        for key in touched { refreshThread(key) }
        // One commit for them all, with their history entries: one transaction, pruned once.
        let commit = commits.submit(withdrawal.changes(historyChanges(withdrawal.ended)))
        // The selection is in the order of the ids already: no second sort of thousands of strings.
        reply(call, after: commit, with: [.strings(selection.map(\.id))])
    }

    /// What withdrawing notifications leaves to write, gathered for one commit.
    private struct Withdrawal {
        /// The changes that forget them on disk.
        var forgotten: [DaemonStore.Change] = []
        /// Their history entries, in the order they ended.
        var ended: [EndedPost] = []

        /// The changes of the commit: ``forgotten``, then `history` (the changes that write ``ended``).
        func changes(_ history: [DaemonStore.Change]?) -> [DaemonStore.Change] { forgotten + (history ?? []) }
    }

    /// Withdraws one notification, whose scheduling ``unschedule(_:why:)`` ended with `unscheduled`, adding what
    /// forgets it on disk and its history entry to `withdrawal`. One of a thread leaves it: see
    /// ``leaveThreadOnWithdrawal(_:refreshing:)``; one folded into a flood's notification leaves that
    /// (``leaveFoldOnWithdrawal(_:)``).
    private func withdrawEntry(
        _ id: String, unscheduled: [DaemonStore.Change], refreshingThread: Bool = true,
        into withdrawal: inout Withdrawal
    ) {
        var changes = unscheduled
        // A firing's post is in the store until the server has shown it (its progress is recorded then): held, waiting
        // for a server, or with its Notify out. The withdrawal ends that firing, so the post goes with it; else a
        // restart of the daemon would show the notification again.
        if table[id].map({ $0.isHeld || $0.isPosting || $0.isAwaitingServer }) == true,
            !changes.contains(where: { if case .unschedule = $0 { true } else { false } })
        {
            changes.append(.unschedule(id: id))
        }
        let handedOver = leaveThreadOnWithdrawal(id, refreshing: refreshingThread)
        leaveFoldOnWithdrawal(id)
        let before = table[id]
        let effects = apply(handedOver ? .handedOver : .withdrawn, to: id, deferringStoreChanges: true)
        // Forgotten on disk, and kept in the history, in the commit the call is answered after.
        for effect in effects {
            switch effect {
            case .forgetDelivered:
                changes.append(.forgetDelivered(id: id))
                logger.debug("withdrawn", metadata: ["notification.id": "\(id)"])
            case .recordHistory(let ending):
                if let before { withdrawal.ended.append(endedPost(id, before, ending)) }
            default:
                break
            }
        }
        withdrawal.forgotten += changes
    }

    /// The delivered notifications `filterValue` selects for `caller` (`ListDelivered`): those the server shows, and
    /// the earlier ones of a thread waiting behind the one shown.
    func listDelivered(_ filterValue: DBusValue, caller: String) async throws(DBusFailure) -> Listing {
        try checkRunning()
        var filter = try NotificationFilter(filterValue)
        try confine(&filter, to: await peer(of: caller))
        return .values(
            selected(filter, caller: caller) { $0.isDelivered }.map { id, entry in
                NotificationCoding.encode(
                    id: id, content: entry.content, route: entry.route.listed, isOnScreen: !entry.isStacked)
            })
    }

    /// The scheduled notifications `filterValue` selects for `caller`, earliest first (`ListPending`).
    ///
    /// The daemon keeps in memory only what selects them (``PendingPost``). Each is copied from the keys its row keeps
    /// in wire form (``ScheduledPost/wireListing``), read from the store in one pass, with its id and next fire date
    /// added, so that listing 10,000 takes milliseconds. Every value is built from its content instead when one has no
    /// such keys (stored by an earlier version), and with `inWireForm: false`: for when libdbus finds the copied list
    /// invalid, which only a damaged store could cause. A notification the store has no row for (withdrawn meanwhile,
    /// or never saved) is not listed.
    func listPending(_ filterValue: DBusValue, caller: String, inWireForm: Bool = true)
        async throws(DBusFailure) -> Listing
    {
        try checkRunning()
        var filter = try NotificationFilter(filterValue)
        try confine(&filter, to: await peer(of: caller))
        let pending = await scheduler.pending()
        let selected = pending.filter { pending in
            let notification = pending.notification
            return table.isScheduled(notification.id)
                && filter.selects(
                    appName: notification.appName ?? defaultAppName, poster: notification.payload.poster,
                    content: notification.payload.selection.value, caller: caller)
        }
        let due = table.scheduledCount > pending.count ? dueUnderWay(filter, caller: caller, pending) : []
        // Those the desktop's do-not-disturb holds back come after the scheduled ones, in the order they are to be
        // shown.
        let held = listedHeld(filter, caller: caller)
        guard !selected.isEmpty || !due.isEmpty else { return .values(held) }
        if inWireForm, held.isEmpty, due.isEmpty {
            let stored = try await listedForms()
            // Without a row: withdrawn meanwhile, or never saved.
            let listed = selected.filter { stored[$0.notification.id] != nil }
            // Room for each kept form and the id and date added (under 96 bytes), so that the list is never moved as
            // it grows.
            var list = DBusDictionaryList(
                reservingCapacity: listed.reduce(0) {
                    $0 + ((stored[$1.notification.id] ?? nil)?.bytes.count ?? 0) + 96
                })
            var copied = true
            for pending in listed {
                let notification = pending.notification
                let extra = NotificationCoding.listedEntries(id: notification.id, nextFireDate: pending.nextFireDate)
                guard let form = stored[notification.id] ?? nil,
                    (try? list.append(DBusWireDictionary(bytes: form.bytes), adding: extra)) != nil
                else {
                    copied = false
                    break
                }
            }
            if copied { return .wire(list) }
        }
        var values: [DBusValue] = []
        for pending in selected {
            let notification = pending.notification
            guard let post = try await listedPost(notification.id) else { continue }
            values.append(
                NotificationCoding.encode(
                    id: notification.id, content: post.content, route: post.route.listed,
                    nextFireDate: pending.nextFireDate, trigger: notification.trigger))
        }
        let now = await scheduler.now
        for id in due {
            guard let post = try await listedPost(id) else { continue }
            values.append(
                NotificationCoding.encode(id: id, content: post.content, route: post.route.listed, nextFireDate: now))
        }
        return .values(values + held)
    }

    /// The scheduled notifications `filter` selects for `caller` that came due and are on their way to be shown or
    /// held: the scheduler let them go (they are not among `pending`), and ``fired(_:)`` has not taken them in yet. A
    /// restart fires at once what came due while the daemon was stopped, and what do-not-disturb held, and the daemon
    /// answers calls before it takes those firings in; `ListPending` lists them as due now meanwhile, so that nothing
    /// it keeps is missing from the list at any moment. By id, so that a listing is the same each time.
    private func dueUnderWay(
        _ filter: NotificationFilter, caller: String, _ pending: [PendingNotification<PendingPost>]
    ) -> [String] {
        let waiting = Set(pending.map(\.notification.id))
        return table.live.compactMap { id, entry in
            guard entry.isScheduled, case .pending = entry.phase, !waiting.contains(id),
                filter.selects(appName: entry.appName, poster: entry.poster, content: entry.content, caller: caller)
            else { return nil }
            return id
        }.sorted()
    }

    /// The listing forms of the scheduled notifications, from the store.
    private func listedForms() async throws(DBusFailure) -> [String: RowBytes?] {
        do throws(NotificationStoreError) {
            return try await commits.storedListings()
        } catch {
            throw storeFailure(error)
        }
    }

    /// The post of the scheduled notification `id`, from the store; `nil` when it has none.
    private func listedPost(_ id: String) async throws(DBusFailure) -> ScheduledPost? {
        do throws(NotificationStoreError) {
            return try await commits.storedPost(id: id)
        } catch {
            throw storeFailure(error)
        }
    }

    /// A listing as ``listPending(_:caller:inWireForm:)`` makes it.
    enum Listing: Sendable {
        /// Written in wire form.
        case wire(DBusDictionaryList)
        /// Built value by value.
        case values([DBusValue])
    }

    /// The live notifications the filter selects for `caller` among those `include` accepts, by id.
    private func selected(
        _ filter: NotificationFilter, caller: String, _ include: (TrackedNotification) -> Bool
    ) -> [(id: String, entry: TrackedNotification)] {
        table.live.filter { _, entry in
            include(entry)
                && filter.selects(appName: entry.appName, poster: entry.poster, content: entry.content, caller: caller)
        }.map { ($0.key, $0.value) }.sorted { $0.id < $1.id }
    }
}
