import NotificationBridgeAPI
import NotificationModel

extension NotificationFilter {
    /// Whether a notification posted under `appName` by `poster`, showing `content`, is selected for `caller`.
    ///
    /// The content is read only when the filter names a category or a thread: a listing of thousands without one
    /// copies none.
    func selects(
        appName owner: String, poster: String, content: @autoclosure () -> NotificationContent?, caller: String
    ) -> Bool {
        if let appName {
            guard owner == appName else { return false }
        } else {
            guard poster == caller else { return false }
        }
        guard category != nil || thread != nil else { return true }
        let content = content()
        if let category, content?.categoryID != category { return false }
        if let thread, content?.threadID != thread { return false }
        return true
    }
}
