import DBusCore
import NotificationModel

/// Snoozing, for apps that post themselves: the center adds the snooze buttons as the daemon does, and puts a
/// notification off while the app runs. The daemon keeps a snoozed notification across restarts; the center keeps it
/// in memory, so a snooze ends with the center (the end of ``DesktopNotificationCenter/run()``) or the app.
extension DesktopNotificationCenter {
    /// A snooze button was pressed (the session's ``SessionEvent/snoozed(_:)``): the notification leaves the screen
    /// now and is shown again, under the same id and with its handler, once the interval has passed, unless it was
    /// withdrawn or posted again meanwhile. Its handlers hear of it only when its category asks
    /// (``NotificationCategory/reportsSnooze``).
    func snooze(_ answer: SessionSnooze) async {
        guard let session else { return }
        let interval = answer.interval
        let notification = answer.notification
        let id = notification.id
        snoozing.insert(id)
        let handler = notificationHandlers[id]
        await session.withdraw(id: id)
        logger.debug("snoozed", metadata: ["notification.id": "\(id)", "snooze.seconds": "\(interval.seconds)"])
        let hints = answer.hints
        work.yield { [weak self] in
            try? await Task.sleep(for: interval.duration)
            guard !Task.isCancelled else { return }
            await self?.showAgain(notification, hints: hints, handler: handler)
        }
        if notification.category?.reportsSnooze == true {
            let action = NotificationAction(
                id: NotificationResponse.snoozeActionID, title: "Snooze", activation: .background)
            await deliver(notification, action, actionID: action.id, text: nil, token: nil)
        }
    }

    /// Shows a snoozed notification again, as it was shown, if it is still snoozed.
    private func showAgain(
        _ notification: any FollowedNotification, hints: [String: DBusValue], handler: ResponseHandler?
    ) async {
        guard let session, snoozing.remove(notification.id) != nil else { return }
        do {
            try await session.post(
                notification.content, category: notification.category, id: notification.id, hints: hints)
            if let handler { notificationHandlers[notification.id] = handler }
        } catch {
            logger.warning(
                "cannot show a snoozed notification again",
                metadata: ["notification.id": "\(notification.id)", "error": "\(error)"])
        }
    }
}
