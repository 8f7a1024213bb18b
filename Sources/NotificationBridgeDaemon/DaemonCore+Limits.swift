import DBusCore
import NotificationBridgeAPI

/// The bounds on what one connection or one app may hold at once, so that a program that misbehaves cannot take what
/// the others need: each is smaller than the daemon's own bound, which only keeps its memory in check.
extension DaemonCore {
    /// `WaitForResponse` calls one connection may have waiting.
    static let maximumWaitsPerConnection = 256
    /// `WaitForResponse` calls waiting for the notifications of one app, whoever made them.
    static let maximumWaitsPerApp = 1024
    /// App names one connection may be attached as.
    static let maximumAttachmentsPerConnection = 16

    /// Refuses one more `WaitForResponse` call of `sender` for a notification of `appName` beyond a limit.
    func checkWaitLimits(_ sender: String, appName: String) throws(DBusFailure) {
        var ofConnection = 0
        var ofApp = 0
        var all = 0
        for id in table.awaited {
            guard let entry = table[id] else { continue }
            all += entry.waits.count
            if entry.appName == appName { ofApp += entry.waits.count }
            ofConnection += entry.waits.lazy.filter { $0.sender == sender }.count
        }
        let howToFree = "let some finish, or end them (a waiting call ends when its notification is withdrawn)"
        if ofConnection >= Self.maximumWaitsPerConnection {
            throw BridgeError.limitExceeded.failure(
                "this connection has \(ofConnection) WaitForResponse calls waiting, the most one connection may; "
                    + howToFree)
        }
        if ofApp >= Self.maximumWaitsPerApp {
            throw BridgeError.limitExceeded.failure(
                "\(ofApp) WaitForResponse calls wait for the notifications of app \(quotedForMessage(appName)), the "
                    + "most for one app; " + howToFree)
        }
        if all >= Self.maximumWaits {
            throw BridgeError.limitExceeded.failure(
                "\(all) WaitForResponse calls are already waiting, the most the daemon takes; " + howToFree)
        }
    }

    /// Refuses a `Post` shown at once that would give the app `appName` one more showing notification than
    /// ``ShowingLimit/perApp``. A post that takes the place of one the app has showing (the same id) adds none.
    func checkShowingLimit(appName: String, id: String) throws(DBusFailure) {
        if let previous = table[id], previous.appName == appName, ShowingLimit.counts(previous) { return }
        let count = table.showingCount(of: appName)
        if count >= ShowingLimit.perApp { throw ShowingLimit.failure(appName: appName, count: count) }
    }
}
