import NotificationBridgeAPI
import NotificationModel

extension NotificationFilter {
    /// Whether a notification posted under `appName` by `poster`, showing `content`, is selected for `caller`.
    func selects(appName owner: String, poster: String, content: NotificationContent?, caller: String) -> Bool {
        if let appName {
            guard owner == appName else { return false }
        } else {
            guard poster == caller else { return false }
        }
        if let category, content?.categoryID != category { return false }
        if let thread, content?.threadID != thread { return false }
        return true
    }
}
