import DBusCore
import FoundationEssentials
import NotificationBridge
import NotificationBridgeAPI
import NotificationModel

/// `Withdraw`, `WithdrawAll`, `ListDelivered` and `ListPending`: answered from the table, never waiting on the server.
extension DaemonCore {
    /// `Withdraw(s id)`: cancels a scheduled notification and closes a showing one. The call is answered once the
    /// cancellation is on disk; the server is asked to close it meanwhile.
    func withdraw(_ call: DBusMethodCall) async throws(DBusFailure) {
        try checkRunning()
        let id = call.arguments.first?.stringValue ?? ""
        try NotificationID.check(id)
        guard table[id] != nil else {
            throw DBusFailure(
                name: BridgeError.unknownNotification,
                message: "no notification has id \(quotedForMessage(id)); use an id Post returned")
        }
        // Already gone is what was asked for.
        reply(call, after: commits.submit(await withdrawEntry(id)))
    }

    /// `WithdrawAll(a{sv} filter)`: returns the ids it withdrew.
    func withdrawAll(_ call: DBusMethodCall) async throws(DBusFailure) {
        try checkRunning()
        let filter = try NotificationFilter(call.arguments[0])
        let ids = selected(filter, caller: call.sender) { $0.isOnServer || $0.isScheduled }.map(\.id)
        var changes: [DaemonStore.Change] = []
        for id in ids { changes += await withdrawEntry(id) }
        reply(call, after: commits.submit(changes), with: [.strings(ids)])
    }

    /// Withdraws one notification; returns the changes that forget it on disk.
    private func withdrawEntry(_ id: String) async -> [DaemonStore.Change] {
        var changes = await unschedule(id)
        guard let entry = table[id] else { return changes }
        switch entry.phase {
        case .posting, .showing:
            end(id, why: "was withdrawn", reason: 3, waitsMessage: "notification '\(id)' was withdrawn before the user "
                + "responded")
            changes.append(.forgetDelivered(id: id))
            let center = self.center
            jobs.yield { await center.withdraw(id: id) }
            logger.debug("withdrawn", metadata: ["notification.id": "\(id)"])
        case .responding, .awaitingServer, .handedToApp, .pending:
            end(id, why: "was withdrawn", waitsMessage: "notification '\(id)' was withdrawn before the user responded")
        case .ended:
            break
        }
        return changes
    }

    func listDelivered(_ filterValue: DBusValue, caller: String) throws(DBusFailure) -> [DBusValue] {
        try checkRunning()
        let filter = try NotificationFilter(filterValue)
        let notifications = selected(filter, caller: caller) { $0.isOnServer }.map { id, entry in
            NotificationCoding.encode(id: id, content: entry.content, route: Self.listedRoute(entry.route))
        }
        return [.array(element: "a{sv}", notifications)]
    }

    func listPending(_ filterValue: DBusValue, caller: String) async throws(DBusFailure) -> [DBusValue] {
        try checkRunning()
        let filter = try NotificationFilter(filterValue)
        let notifications = await scheduler.pending().filter { pending in
            let notification = pending.notification
            return table[notification.id]?.isScheduled == true
                && filter.selects(
                    appName: notification.appName ?? defaultAppName, poster: notification.payload.poster,
                    content: notification.payload.content, caller: caller)
        }.map { pending in
            let post = pending.notification.payload
            return NotificationCoding.encode(
                id: pending.notification.id, content: post.content, route: Self.listedRoute(post.route),
                nextFireDate: pending.nextFireDate, trigger: pending.notification.trigger)
        }
        return [.array(element: "a{sv}", notifications)]
    }

    /// The route as listings show it: `nil` for the posting connection.
    private static func listedRoute(_ route: ResponseRoute) -> ResponseRoute? {
        if case .poster = route { return nil }
        return route
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
