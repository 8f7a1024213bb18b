import NotificationModel

/// Critical by permission: a critical notification is taken as critical only from an app the user allows it
/// (``AppNotificationSettings/allowsCritical(fromSandbox:)``); from any other it is delivered as time-sensitive, and
/// then passes a do-not-disturb only where the user lets that app's time-sensitive notifications through.
///
/// Settled once, when the post is taken: what is scheduled, held or listed is the notification as it is delivered,
/// so the app reads what became of it in `ListDelivered` and `ListPending` (`interruption-level`), and its own
/// permission in `GetSettings` (`critical-alerts`, absent while the default holds), as an iOS app reads its `criticalAlertSetting`.
extension DaemonCore {
    /// `content`, posted by `peer`, at the level the user permits its app.
    func permittingLevel(of content: NotificationContent, postedBy peer: Peer) async -> NotificationContent {
        guard content.levelForDoNotDisturb == .critical else { return content }
        let app = settingsApp(of: content)
        let settings = await settings.record(for: app).settings
        guard let lowered = content.permitted(criticalAllowed: settings.allowsCritical(fromSandbox: peer.isSandboxed))
        else { return content }
        logger.info(
            "a critical notification is delivered as time-sensitive: the user has not allowed the app critical ones",
            metadata: [
                "notification.app": "\(app)", "dbus.peer": "\(peer.description)",
                "settings.critical": "\(settings.allowsCritical.map { $0 ? "on" : "off" } ?? "default")",
            ])
        return lowered
    }
}
