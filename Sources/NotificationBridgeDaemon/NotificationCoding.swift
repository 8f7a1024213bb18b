import DBusCore
import FoundationEssentials
import NotificationBridgeAPI
import NotificationModel

/// A notification as `ListDelivered`, `ListPending` and `Fired` give it: a ``ListedNotification``.
enum NotificationCoding {
    static func encode(
        id: String, content: NotificationContent, route: ResponseRoute?, nextFireDate: Date? = nil,
        trigger: NotificationTrigger? = nil
    ) -> DBusValue {
        let postRoute: PostRoute? =
            switch route {
            case .command(let argv)?: .command(argv)
            case .application(_, let action)?: .application(action: action)
            case .poster?, nil: nil
            }
        let post = NotificationPost(content: content, route: postRoute, schedule: trigger.flatMap(PostSchedule.init))
        return ListedNotification(
            id: id, post: post, nextFireSeconds: nextFireDate.map { Int64($0.timeIntervalSince1970.rounded(.up)) }
        ).value
    }
}
