import DBusCore
import Foundation
import NotificationBridge
import NotificationBridgeAPI
import NotificationModel

/// Scheduled notifications and the store that keeps them (and the categories) across restarts.
extension DaemonCore {
    /// Records a change durably; the caller's change is refused when it cannot be.
    func record(_ changes: DaemonStore.Change...) throws(DBusFailure) {
        try record(contentsOf: changes)
    }

    /// Schedules a notification, durably before the scheduler takes it.
    func schedule(
        _ content: NotificationContent, trigger: NotificationTrigger, id: String, route: ResponseRoute,
        poster: String, hints: [String: DBusValue] = [:]
    ) async throws(DBusFailure) {
        let registered = Set(await center.notificationCategories().map(\.id))
        do throws(NotificationValidationError) {
            try content.validate(isCategoryRegistered: { registered.contains($0) })
        } catch {
            throw error.bridgeFailure
        }
        let appName = content.appName ?? defaultAppName
        let notification = ScheduledNotification(
            id: id, appName: appName, trigger: trigger,
            payload: ScheduledPost(content: content, route: route, poster: poster, hints: hints), scheduledAt: Date(),
            timeZoneIdentifier: await scheduler.timeZone.identifier)
        try record(.schedule(notification))
        scheduled[id] = Posted(appName: appName, poster: poster, route: route, reportsDismissal: false)
        ended[id] = nil
        let report = await scheduler.restore([notification])
        if !report.finished.isEmpty || !report.rejected.isEmpty {
            scheduled[id] = nil
            try? record(.unschedule(id: id))
            throw BridgeError.invalid("the notification's fire date never comes; give a later 'fire-date' or 'in'")
        }
        logger.debug("scheduled", metadata: [
            "notification.id": "\(id)", "notification.app": "\(appName)", "dbus.sender": "\(poster)",
            "notification.route": "\(route.kind)",
        ])
    }

    /// Cancels scheduled notifications: waiting calls for them fail, and they are forgotten durably.
    func unschedule(_ ids: [String], why: String) async throws(DBusFailure) {
        let ids = ids.filter { scheduled[$0] != nil }
        guard !ids.isEmpty else { return }
        try record(contentsOf: ids.map { .unschedule(id: $0) })
        awaitingServer.removeAll { ids.contains($0.notification.id) }
        for id in ids {
            await scheduler.withdraw(id: id)
            scheduled[id] = nil
            if posted[id] == nil {
                ended[id] = why
                failWaits(id, message: "notification '\(id)' \(why) before it was shown")
            }
            logger.debug("unscheduled", metadata: ["notification.id": "\(id)"])
        }
    }

    private func record(contentsOf changes: [DaemonStore.Change]) throws(DBusFailure) {
        do {
            try store.apply(changes)
        } catch {
            logger.error("cannot save the daemon's state", metadata: ["error": "\(error)"])
            throw DBusFailure(
                name: BridgeError.serverError,
                message: "cannot save the change in \(store.directory) (\(error)); free some space or fix the "
                    + "folder's permissions, then call again")
        }
    }

    /// Shows a scheduled notification that came due, through the same path as an immediate `Post`, then records its
    /// progress (a crash in between shows it again at the next start rather than never).
    func fired(_ firing: ScheduledFiring<ScheduledPost>) async {
        let notification = firing.notification
        let id = notification.id
        // Withdrawn while the firing was on its way, or the daemon is stopping (it fires again at the next start).
        guard !stopping, scheduled[id] != nil else { return }
        // A repeating one that came due again while waiting for a server is shown once.
        awaitingServer.removeAll { $0.notification.id == id }
        if handToForegroundApp(id, notification.payload) {
            recordFired(firing)
            return
        }
        do throws(DBusFailure) {
            try await showFired(notification)
        } catch where error.name == BridgeError.noServer {
            // Its progress is not recorded, so that a restart before a server appears shows it too.
            awaitingServer.append(firing)
            logger.notice(
                "a scheduled notification came due with no notification server; it is shown once one appears",
                metadata: ["notification.id": "\(id)"])
            return
        } catch {
            logger.warning("cannot show a scheduled notification", metadata: [
                "notification.id": "\(id)", "error": "\(error.message)",
            ])
        }
        recordFired(firing)
    }

    private func showFired(_ notification: ScheduledNotification<ScheduledPost>) async throws(DBusFailure) {
        let post = notification.payload
        var category: NotificationCategory?
        if let categoryID = post.content.categoryID {
            category = await center.notificationCategories().first { $0.id == categoryID }
        }
        try await show(
            post.content, id: notification.id, route: post.route, poster: post.poster, category: category,
            hints: post.hints)
    }

    /// Records that a firing was shown: a one-shot notification is no longer scheduled, a repeating one moved on.
    private func recordFired(_ firing: ScheduledFiring<ScheduledPost>) {
        let id = firing.notification.id
        if firing.nextFireDate == nil { scheduled[id] = nil }
        do {
            try store.apply(firing.nextFireDate == nil ? .unschedule(id: id) : .schedule(firing.notification))
        } catch {
            logger.error("cannot save the daemon's state", metadata: ["error": "\(error)"])
        }
    }

    /// A notification server appeared: shows what came due while there was none, oldest first.
    func serverAppeared() async {
        guard !stopping, !awaitingServer.isEmpty else { return }
        let waiting = awaitingServer
        awaitingServer = []
        logger.info("a notification server appeared; showing scheduled notifications that came due meanwhile",
            metadata: ["count": "\(waiting.count)"])
        for firing in waiting {
            // Withdrawn while waiting.
            guard scheduled[firing.notification.id] != nil else { continue }
            do throws(DBusFailure) {
                try await showFired(firing.notification)
            } catch where error.name == BridgeError.noServer {
                awaitingServer.append(firing)
                continue
            } catch {
                logger.warning("cannot show a scheduled notification", metadata: [
                    "notification.id": "\(firing.notification.id)", "error": "\(error.message)",
                ])
            }
            recordFired(firing)
        }
    }

    /// Takes back the categories and scheduled notifications of the last run; those whose time passed fire now, once.
    func restore() async {
        defer { finishRestoring() }
        let state = store.state
        for category in state.categories.values.sorted(by: { $0.id < $1.id }) {
            do {
                try await center.register(category)
            } catch {
                logger.error("a saved category is not valid any more; it is not registered", metadata: [
                    "category.id": "\(category.id)", "error": "\(error)",
                ])
            }
        }
        await restoreDelivered()
        let saved = state.pending.values.sorted { $0.scheduledAt < $1.scheduledAt }
        for notification in saved {
            scheduled[notification.id] = Posted(
                appName: notification.appName ?? defaultAppName, poster: notification.payload.poster,
                route: notification.payload.route, reportsDismissal: false)
        }
        let report = await scheduler.restore(saved)
        let dropped = report.finished.map(\.id) + report.rejected.map(\.notification.id)
        for id in dropped { scheduled[id] = nil }
        for rejected in report.rejected {
            logger.error("a saved scheduled notification is not valid any more; it is dropped", metadata: [
                "notification.id": "\(rejected.notification.id)", "error": "\(rejected.error)",
            ])
        }
        try? store.apply(dropped.map { .unschedule(id: $0) })
        if !saved.isEmpty || !state.categories.isEmpty {
            logger.info("restored scheduled notifications and categories", metadata: [
                "state.pending": "\(saved.count - dropped.count)", "state.categories": "\(state.categories.count)",
                "state.directory": "\(store.directory)",
            ])
        }
    }
}
