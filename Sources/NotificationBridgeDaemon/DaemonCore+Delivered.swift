import DBusCore
import Foundation
import NotificationBridge
import NotificationBridgeAPI
import NotificationModel

/// Showing notifications kept on disk, so that a response after a restart of the daemon still reaches its handler.
extension DaemonCore {
    /// The handler the center calls with a response: the one place chosen when the notification was posted.
    func responseHandler(
        content: NotificationContent, category: NotificationCategory?, route: ResponseRoute, appName: String
    ) -> DesktopNotificationCenter.ResponseHandler {
        let foreground = Set(
            (category?.actions ?? content.actions).filter { $0.activation == .foreground }.map(\.id)
                + [NotificationResponse.defaultActionID])
        return { [weak self] response in
            await self?.respond(
                response, route: route, appName: appName, foreground: foreground.contains(response.actionID))
        }
    }

    /// Records a notification that the server now shows.
    func keepDelivered(_ id: String, content: NotificationContent, record: Posted) async {
        guard let serverID = await center.serverID(of: id) else { return }
        var changes: [DaemonStore.Change] = [
            .deliver(
                id: id,
                DeliveredPost(
                    serverID: serverID, content: content, route: record.route, poster: record.poster,
                    reportsDismissal: record.reportsDismissal, shownAt: Date()))
        ]
        let kept = store.state.delivered
        if kept.count >= DeliveredPost.maximumKept {
            let oldest = kept.filter { $0.key != id }.sorted { $0.value.shownAt < $1.value.shownAt }
            changes += oldest.prefix(kept.count - DeliveredPost.maximumKept + 1).map { .forgetDelivered(id: $0.key) }
        }
        do {
            try store.apply(changes)
        } catch {
            logger.error("cannot save the daemon's state; a response after a restart will be lost", metadata: [
                "notification.id": "\(id)", "error": "\(error)",
            ])
        }
    }

    /// Follows a notification posted again to a restarted server: its new server id is what a later restart of the
    /// daemon must look for.
    func reposted(_ notification: DesktopNotificationCenter.DeliveredNotification) {
        guard var kept = store.state.delivered[notification.id], kept.serverID != notification.serverID else { return }
        kept.serverID = notification.serverID
        do {
            try store.apply(.deliver(id: notification.id, kept))
        } catch {
            logger.error("cannot save the daemon's state", metadata: ["error": "\(error)"])
        }
    }

    /// Forgets a notification that left the server.
    func forgetDelivered(_ id: String) {
        guard store.state.delivered[id] != nil else { return }
        do {
            try store.apply(.forgetDelivered(id: id))
        } catch {
            logger.error("cannot save the daemon's state", metadata: ["error": "\(error)"])
        }
    }

    /// Takes back the notifications the last run showed: their responses are routed as before the restart.
    func restoreDelivered() async {
        let delivered = store.state.delivered.sorted { $0.value.shownAt < $1.value.shownAt }
        guard !delivered.isEmpty else { return }
        let categories = await center.notificationCategories()
        for (id, kept) in delivered {
            let category = kept.content.categoryID.flatMap { categoryID in categories.first { $0.id == categoryID } }
            let appName = kept.content.appName ?? defaultAppName
            posted[id] = Posted(
                appName: appName, poster: kept.poster, route: kept.route, reportsDismissal: kept.reportsDismissal)
            await center.adopt(
                id: id, serverID: kept.serverID, content: kept.content,
                handler: responseHandler(
                    content: kept.content, category: category, route: kept.route, appName: appName))
        }
        logger.info("restored the routes of notifications shown before the restart", metadata: [
            "state.delivered": "\(delivered.count)",
        ])
    }
}
