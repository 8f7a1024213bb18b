import DBusCore
import NotificationBridgeAPI

/// The bound on the scheduled notifications one app may have waiting to fire.
///
/// Each is a row on disk (a post with a large body costs over 100 KB there) and a few words of memory: without a
/// bound, one app could fill the disk. The bound is per app (the app name a notification is posted under), so that an
/// app at its limit leaves every other app's `Post` untouched.
enum ScheduledLimit {
    /// The most scheduled notifications one app may have waiting: 10,000, what the benchmarks schedule under one app.
    static let perApp = 10_000

    /// The failure of a scheduled `Post` of `appName`, which has `count` scheduled already: says which limit, and how
    /// to make room.
    static func failure(appName: String, count: Int) -> DBusFailure {
        let app = quotedForMessage(appName)
        return DBusFailure(
            name: BridgeError.limitExceeded,
            message: "app \(app) has \(count) scheduled notifications waiting, the most one app may have "
                + "(\(perApp)); withdraw some first: Withdraw with their ids, or WithdrawAll with the filter "
                + "{'app-name': <\(app)>} (notification-bridge withdraw --all --app-name NAME)")
    }
}
