import DBusCore
import Foundation
import NotificationBridge
import NotificationBridgeAPI
import NotificationModel

/// Showing notifications kept on disk, so that a response after a restart of the daemon still reaches its handler.
extension DaemonCore {
    /// Records a notification that the server now shows; returns the commit that saves it.
    func keepDelivered(_ id: String, _ entry: TrackedNotification) async -> DurableCommits.Commit? {
        guard let serverID = await center.serverID(of: id) else { return nil }
        var changes: [DaemonStore.Change] = [
            .deliver(
                id: id,
                DeliveredPost(
                    serverID: serverID, content: entry.content, route: entry.route, poster: entry.poster,
                    reportsDismissal: entry.reportsDismissal, shownAt: Date()))
        ]
        let kept = commits.store.state.delivered
        if kept.count >= DeliveredPost.maximumKept {
            let oldest = kept.filter { $0.key != id }.sorted { $0.value.shownAt < $1.value.shownAt }
            changes += oldest.prefix(kept.count - DeliveredPost.maximumKept + 1).map { .forgetDelivered(id: $0.key) }
        }
        return commits.submit(changes)
    }

    /// Follows a notification posted again to a restarted server: its new server id is what a later restart of the
    /// daemon must look for.
    func repost(_ notification: DesktopNotificationCenter.DeliveredNotification) {
        guard let entry = table[notification.id], entry.isOnServer else { return }
        commits.submit([
            .deliver(
                id: notification.id,
                DeliveredPost(
                    serverID: notification.serverID, content: entry.content, route: entry.route, poster: entry.poster,
                    reportsDismissal: entry.reportsDismissal, shownAt: Date()))
        ])
    }

    /// Forgets a notification that left the server.
    func forgetDelivered(_ id: String) {
        commits.submit([.forgetDelivered(id: id)])
    }

    /// Takes back the notifications the last run showed: their responses are routed as before the restart.
    func restoreDelivered() async {
        let delivered = commits.store.state.delivered.sorted { $0.value.shownAt < $1.value.shownAt }
        guard !delivered.isEmpty else { return }
        for (id, kept) in delivered {
            table[id] = TrackedNotification(
                appName: kept.content.appName ?? defaultAppName, poster: kept.poster, route: kept.route,
                content: kept.content, reportsDismissal: kept.reportsDismissal, phase: .showing)
            await center.adopt(id: id, serverID: kept.serverID, content: kept.content)
        }
        logger.info("restored the routes of notifications shown before the restart", metadata: [
            "state.delivered": "\(delivered.count)"
        ])
    }
}
