import DBusCore
import NotificationBridge
import NotificationModel

/// Threads: the notifications of one app with the same thread id (``ThreadBook``).
///
/// On a server that shows every notification on its own (all but GNOME Shell and Plasma,
/// ``NotificationServerInfo/groupsByApp``), one notification of a thread is on the server: each new one takes the
/// place of the one shown (the same server id, `Notify` with `replaces_id`), with its own title, body and actions and
/// a summary line below the body ("3 new messages from Ann", ``ThreadSummary``). The earlier ones wait behind it
/// (``TrackedNotification/Phase/stacked``): listed by `ListDelivered`, their routes kept. Withdrawing the one shown
/// brings back the one before it; withdrawing an earlier one updates the count; the user closing the one shown (or
/// its expiry, or an action that closes it) ends the whole thread, as dismissing a group does on iOS.
///
/// Where the server groups notifications itself, each is shown on its own, and the summary line is added only when
/// the notification asks for it (``NotificationContent/alwaysSummarizesThread``).
extension DaemonCore {
    /// The thread a notification with `content` belongs to, or `nil` when it names none.
    func threadKey(of content: NotificationContent) -> ThreadBook.Key? {
        guard let thread = content.threadID else { return nil }
        return ThreadBook.Key(app: settingsApp(of: content), thread: thread)
    }

    /// Whether the server shows every notification on its own, so that the daemon keeps one of a thread on it.
    var keepsOneOfAThreadShown: Bool { !session.latestServerInformation.groupsByApp }

    /// Puts notification `id`, about to be shown with `content`, in its thread as its newest (a notification already
    /// in one keeps its place); returns what the server is sent, with the thread's summary where it has one, and the
    /// notification whose place on the server it takes, which now waits behind it.
    func placeInThread(
        _ id: String, content: NotificationContent, category: NotificationCategory?
    ) -> (content: NotificationContent, inPlaceOf: String?) {
        guard let key = threadKey(of: content) else { return (content, nil) }
        let (previous, letGo) = threads.join(id, key) { [table] in table[$0]?.content.summaryArgumentCount ?? 1 }
        if let letGo {
            // Beyond the most a thread keeps: the oldest goes, as if the user had closed it; the summary still counts
            // it.
            apply(.threadClosed(.closedByCall, dismissed: false), to: letGo)
        }
        var inPlaceOf: String?
        if keepsOneOfAThreadShown, let previous, table[previous]?.isOnServer == true {
            apply(.stacked, to: previous)
            inPlaceOf = previous
        }
        return (summarized(content, in: key, category: category), inPlaceOf)
    }

    /// `content` with its thread's summary as the last line of the body, when the thread has more than one
    /// notification and the summary is to be shown (always where the daemon keeps one shown, on request elsewhere).
    func summarized(
        _ content: NotificationContent, in key: ThreadBook.Key, category: NotificationCategory?
    ) -> NotificationContent {
        let ids = threads.members(of: key)
        guard ids.count > 1 || threads.countLetGo(of: key) > 0, keepsOneOfAThreadShown || content.alwaysSummarizesThread
        else { return content }
        let contents = ids.compactMap { table[$0]?.content }
        let line = ThreadSummary.text(
            format: category?.summaryFormat,
            count: contents.reduce(threads.countLetGo(of: key)) { $0 + $1.summaryArgumentCount },
            arguments: contents.reversed().compactMap(\.summaryArgument))
        var shown = content
        // The body sent stays within the limit a posted body is held to: the line gets what the body leaves.
        let room = NotificationLimits.maxBodyBytes - (content.body.isEmpty ? 0 : content.body.utf8.count + 1)
        let text = Self.summaryLine(line, within: room, markup: content.bodyIsMarkup)
        guard !text.isEmpty else { return content }
        shown.body = shown.body.isEmpty ? text : shown.body + "\n" + text
        return shown
    }

    /// `line` cut to fit in `room` bytes, escaped for a markup body; an escape is never cut in two, because the line
    /// is cut before it is escaped, shorter each time until its escaped form fits.
    static func summaryLine(_ line: String, within room: Int, markup: Bool) -> String {
        var cut = NotificationLimits.truncated(line, toBytes: max(room, 0))
        guard markup else { return cut }
        var escaped = MarkupEscaping.escape(cut)
        while escaped.utf8.count > room, !cut.isEmpty {
            cut = NotificationLimits.truncated(cut, toBytes: cut.utf8.count - (escaped.utf8.count - room))
            escaped = MarkupEscaping.escape(cut)
        }
        return escaped
    }

    /// Takes notification `id` out of its thread as it is withdrawn. When it is the one on the server and an earlier
    /// one waits behind it, that one comes back in its place and this returns `true`: the caller ends `id` without
    /// taking it off the server. When an earlier one is withdrawn, the one on the server shows the new count (unless
    /// `refreshing` is false: the caller refreshes the thread itself, once, see ``refreshThread(_:)``).
    func leaveThreadOnWithdrawal(_ id: String, refreshing: Bool = true) -> Bool {
        guard let entry = table[id], let left = threads.leave(id), keepsOneOfAThreadShown else { return false }
        if entry.isStacked {
            if refreshing { refreshThread(left.key) }
            return false
        }
        guard left.wasNewest, entry.isOnServer, let back = threads.newest(of: left.key),
            table[back]?.isStacked == true
        else { return false }
        bringBack(back, inPlaceOf: id)
        return true
    }

    /// Shows an earlier notification of a thread again, in the place of the newest, which was withdrawn. It comes
    /// back silently: it was shown once already.
    private func bringBack(_ id: String, inPlaceOf newest: String) {
        apply(.broughtBack, to: id)
        guard var content = table[id]?.content else { return }
        content.sound = .none
        let category = content.categoryID.flatMap { categories[$0] }
        // Reserved now, in the order of the calls, the place it takes first; the delivery runs as a job.
        let other = (id: newest, turn: session.reserveTurn(for: newest))
        let turns = ReservedTurns(own: session.reserveTurn(for: id), inPlaceOf: other)
        let delivery = Delivery(.broughtBack, id: id, content: content, category: category, inPlaceOf: newest)
        jobs.yield { [weak self] in
            await self?.deliverOnScreen(
                delivery, turns: turns,
                failure: "cannot show the notification before a withdrawn one of its thread again")
        }
    }

    /// The newer notification of `id`'s thread that was to take its place on the server could not be shown (the
    /// refused one has left the thread already): the server still shows `id`, under the server id the session follows
    /// it by, so it is the thread's notification on the screen again, kept on disk as shown. Its summary is the one
    /// the server shows, which counts what the thread has again.
    func stayOnServer(_ id: String) async {
        guard let serverID = await session.serverID(of: id) else { return }
        let owner = await session.serverOwner
        guard apply(.keptOnServer, to: id).contains(.keepDelivered), let entry = table[id] else { return }
        _ = await keepDelivered(id, entry, serverID: serverID, server: owner)
    }

    /// Shows the thread's count again on the notification on the server, in place and silently, after an earlier one
    /// left.
    func refreshThread(_ key: ThreadBook.Key) {
        guard let newest = threads.newest(of: key), let entry = table[newest], entry.isOnServer else { return }
        var content = entry.content
        content.sound = .none
        let category = content.categoryID.flatMap { categories[$0] }
        let turns = ReservedTurns(own: session.reserveTurn(for: newest))
        let delivery = Delivery(.refresh, id: newest, content: content, category: category)
        jobs.yield { [weak self] in
            await self?.deliverOnScreen(delivery, turns: turns, failure: "cannot update the summary of a thread")
        }
    }

    /// Notification `id` of thread `key` left the server (`closure`); `wasNewest` says whether it was the thread's
    /// newest. Where the daemon keeps one of a thread shown, the one shown stood for the whole thread: the earlier ones
    /// end with it, with the same reason. Elsewhere only `id` leaves its thread.
    func threadMemberClosed(_ id: String, of key: ThreadBook.Key, wasNewest: Bool, _ closure: SessionClosure) {
        guard keepsOneOfAThreadShown, wasNewest else {
            threads.leave(id)
            return
        }
        for member in threads.removeAll(key) where member != id {
            apply(.threadClosed(closure.reason, dismissed: closure.dismissed), to: member)
        }
    }

    /// Puts the notifications restored after a restart of the daemon back in their threads, in the order they had,
    /// with what the notifications their threads let go of counted for.
    func rejoinThreads(_ restored: [(id: String, kept: DeliveredPost)]) {
        // Those an older version kept, with no place, after the others, in the order they were shown.
        let ordered = restored.enumerated().sorted {
            ($0.element.kept.threadPlace ?? .max, $0.offset) < ($1.element.kept.threadPlace ?? .max, $1.offset)
        }
        for (id, kept) in ordered.map(\.element) {
            guard let key = threadKey(of: kept.content) else { continue }
            _ = threads.join(id, key, at: kept.threadPlace)
            if let letGo = kept.threadLetGo { threads.restoreLetGo(letGo, of: key) }
        }
    }
}
