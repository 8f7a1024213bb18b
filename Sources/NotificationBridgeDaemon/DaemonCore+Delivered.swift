import DBusCore
import FoundationEssentials
import NotificationBridge
import NotificationBridgeAPI
import NotificationModel
import NotificationStore

/// Showing notifications kept on disk, so that a response after a restart of the daemon still reaches its handler.
extension DaemonCore {
    /// Records a notification that the server now shows; returns the commit that saves it.
    func keepDelivered(
        _ id: String, _ entry: TrackedNotification, serverID: UInt32, server owner: String?
    ) async -> DurableCommits.Commit? {
        guard serverID != 0 else { return nil }
        let server = await instance(owner)
        // Checked after identifying the server, as for a repost: one withdrawn or closed meanwhile was forgotten on disk
        // already, and kept now it would come back with the next restart of the daemon.
        guard let current = table[id], current.isOnServer else { return nil }
        return commits.submit([.deliver(id: id, kept(id, current, serverID: serverID, server: server))])
    }

    /// What is kept on disk of notification `id`, shown by `server` under `serverID`, or waiting behind the newest of
    /// its thread (`stacked`), with its place in its thread.
    private func kept(
        _ id: String, _ entry: TrackedNotification, serverID: UInt32, server: ServerInstance?, stacked: Bool = false
    ) -> DeliveredPost {
        let letGo = threads.key(of: id).map { threads.countLetGo(of: $0) } ?? 0
        return DeliveredPost(
            serverID: serverID, server: server, content: entry.content, route: entry.route, poster: entry.poster,
            reportsDismissal: entry.reportsDismissal, shownAt: Date(), isStacked: stacked ? true : nil,
            threadPlace: threads.place(of: id), threadLetGo: letGo > 0 ? letGo : nil)
    }

    /// Records a notification that now waits behind the newest of its thread (or was replaced where it waits), so
    /// that a restart of the daemon lists it and can bring it back, with its route. Its server id is not kept: the
    /// newest's is the one on the server.
    @discardableResult
    func keepStacked(_ id: String) -> DurableCommits.Commit? {
        guard let entry = table[id], entry.isStacked else { return nil }
        return commits.submit([.deliver(id: id, kept(id, entry, serverID: 0, server: knownServer, stacked: true))])
    }

    /// Follows a notification posted again to a restarted server: its new server id is what a later restart of the
    /// daemon must look for.
    ///
    /// Kept in the event's own turn, not as a job: the session's events are followed to their end when the daemon
    /// stops, after the jobs have ended, and a record left to a job then would be lost, so that the next start would
    /// forget a notification the server shows. Identifying the new instance asks the bus once per server.
    func repost(_ id: String, serverID: UInt32, server owner: String) async {
        let server = await instance(owner)
        // Checked after identifying the server: a notification that closed meanwhile is not kept again.
        guard let entry = table[id], entry.isOnServer else { return }
        commits.submit([.deliver(id: id, kept(id, entry, serverID: serverID, server: server))])
    }

    /// The server instance that owns the notification name now, `nil` when none does.
    func currentServer() async -> ServerInstance? {
        await instance(await session.serverOwner)
    }

    /// The server instance whose connection has the unique name `owner`: asked of the bus once per instance.
    private func instance(_ owner: String?) async -> ServerInstance? {
        guard let owner else { return nil }
        if let known = knownServer, known.uniqueName == owner { return known }
        let server = await ServerInstance.identify(owner, on: connection)
        knownServer = server
        return server
    }

    /// Forgets a notification that left the server.
    func forgetDelivered(_ id: String) {
        commits.submit([.forgetDelivered(id: id)])
    }

    /// Takes back the notifications the last run showed, if the server instance that shows them still runs: their
    /// responses are routed as before the restart. Those of another instance (the server restarted, or this is
    /// another session) are forgotten: their ids may now name another program's notifications.
    ///
    /// The earlier notifications of a thread, which waited behind the one shown, come back with it, in their order,
    /// and the one shown is shown again with its thread's summary; without it they are forgotten too.
    func restoreDelivered() async {
        // Identified now even with nothing to restore, so that keeping the first notification shown needs no
        // round trip to the bus.
        let server = await currentServer()
        let all = commits.state.delivered.sorted { $0.value.shownAt < $1.value.shownAt }
        guard !all.isEmpty else { return }
        let shown = all.filter { $0.value.isStacked != true && server != nil && $0.value.server == server }
        let shownIDs = Set(shown.map(\.key))
        let shownThreads = Set(shown.compactMap { threadKey(of: $0.value.content) })
        let delivered = all.filter { id, kept in
            guard kept.isStacked == true else { return shownIDs.contains(id) }
            return threadKey(of: kept.content).map(shownThreads.contains) ?? false
        }
        if delivered.count < all.count {
            let kept = Set(delivered.map(\.key))
            let stale = all.filter { !kept.contains($0.key) }
            let message =
                "forgot the routes of notifications shown by a notification server that has since "
                + "restarted or gone; responses to them are lost"
            logger.info(
                "\(message)",
                metadata: [
                    "state.stale": "\(stale.count)", "server.owner": "\(server?.uniqueName ?? "none")",
                ])
            // They left the screen with their server: kept in the history, where they may still be answered.
            let gone = stale.map { id, kept in
                EndedPost(
                    id: id, appName: kept.content.appName ?? defaultAppName, poster: kept.poster, content: kept.content,
                    actions: offeredActions(of: kept.content), route: kept.route, ending: .serverGone,
                    endedAt: history.now)
            }
            commits.submit(stale.map { .forgetDelivered(id: $0.key) } + (historyChanges(gone) ?? []))
        }
        guard !delivered.isEmpty else { return }
        rejoinThreads(delivered.map { ($0.key, $0.value) })
        for (id, kept) in delivered {
            table[id] = TrackedNotification(
                .restored(stacked: kept.isStacked == true), appName: kept.content.appName ?? defaultAppName,
                poster: kept.poster, route: kept.route, content: kept.content, reportsDismissal: kept.reportsDismissal)
        }
        for (id, kept) in delivered where kept.isStacked != true {
            let category = kept.content.categoryID.flatMap { categories[$0] }
            // On the screen already: nothing refuses it or holds it back.
            _ = try? await deliver(
                Delivery(.restore, id: id, content: kept.content, category: category, sending: .takingOver(kept)))
        }
        logger.info(
            "restored the routes of notifications shown before the restart",
            metadata: [
                "state.delivered": "\(delivered.count)"
            ])
    }

    /// Shows a restored notification again in place of itself (`Notify` with its id as `replaces_id`; on GNOME Shell
    /// closed and shown anew, since a replaced banner loses its buttons there) from this run's connection: servers
    /// that send their signals to the poster alone (dunst, GNOME Shell) would otherwise send the user's choice to the
    /// connection of the last run, which is gone. The server keeps its place on the screen; a
    /// notification whose own timeout has passed meanwhile is left alone (the server has expired it); one with a
    /// timeout gets what is left of it.
    func takeOver(_ id: String, _ kept: DeliveredPost, showing shown: NotificationContent) async {
        var content = shown
        if case .milliseconds(let milliseconds) = content.timeout {
            let left = Double(milliseconds) - Date().timeIntervalSince(kept.shownAt) * 1000
            guard left >= 1 else { return }
            content.timeout = .milliseconds(Int32(left))
        }
        do {
            let placed = try await session.showAgain(
                content, category: content.categoryID.flatMap { categories[$0] }, id: id)
            // Closed meanwhile: its route was forgotten, and must not be kept again.
            guard let entry = table[id], entry.isOnServer else { return }
            _ = await keepDelivered(id, entry, serverID: placed.serverID, server: placed.server)
        } catch {
            logger.warning(
                "cannot show a notification of the last run again; a choice on it may be lost",
                metadata: [
                    "notification.id": "\(id)", "error": "\(error)",
                ])
        }
    }
}
