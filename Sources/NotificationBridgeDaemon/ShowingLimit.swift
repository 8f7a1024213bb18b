import DBusCore
import NotificationBridgeAPI

/// The bound on the notifications one app may have showing at once.
///
/// Each showing notification is an entry in the daemon's memory (with its content) and one on the server: without a
/// bound, one app posting in a loop could take the daemon's memory and fill the user's screen and notification list.
/// What counts is what the user has in front of them or is about to: notifications on the server, the earlier ones of
/// a thread kept behind the one shown, and those the desktop's do-not-disturb holds back to show later. The bound is
/// per app (the app name a notification is posted under), so that an app at its limit leaves every other app's `Post`
/// untouched; scheduled notifications have their own bound, ``ScheduledLimit``.
enum ShowingLimit {
    /// The most notifications one app may have showing: 10,000, as many as it may have scheduled.
    static let perApp = 10_000

    /// Whether `entry` counts toward its app's bound.
    static func counts(_ entry: TrackedNotification) -> Bool {
        entry.isOnServer || entry.isStacked || entry.isHeld
    }

    /// The failure of a `Post` of `appName`, which has `count` notifications showing already: says which limit, and
    /// how to make room.
    static func failure(appName: String, count: Int) -> DBusFailure {
        let app = quotedForMessage(appName)
        return DBusFailure(
            name: BridgeError.limitExceeded,
            message: "app \(app) has \(count) notifications showing or held back, the most one app may have "
                + "(\(perApp)); close or withdraw some first: Withdraw with their ids, or WithdrawAll with the filter "
                + "{'app-name': <\(app)>} (notification-bridge withdraw --all --app-name NAME)")
    }
}
