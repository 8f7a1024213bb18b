import DBusCore
import FoundationEssentials
import NotificationBridgeAPI
import NotificationModel

/// A notification as `ListDelivered`, `ListPending` and `Fired` give it: a ``ListedNotification``.
enum NotificationCoding {
    static func encode(
        id: String, content: NotificationContent, route: ResponseRoute?, nextFireDate: Date? = nil,
        trigger: NotificationTrigger? = nil, isOnScreen: Bool = true
    ) -> DBusValue {
        var listed = ListedNotification(
            id: id, post: post(content: content, route: route, trigger: trigger),
            nextFireSeconds: nextFireDate.map(nextFireSeconds))
        listed.isOnScreen = isOnScreen
        return listed.value
    }

    /// The keys a scheduled notification is listed with, but for its id and next fire date: what does not change
    /// while it waits, so that a listing can carry it in wire form (``DBusWireDictionary``).
    static func postEntries(content: NotificationContent, route: ResponseRoute?, trigger: NotificationTrigger)
        throws(DBusFailure) -> DBusWireDictionary
    {
        try DBusWireDictionary(post(content: content, route: route, trigger: trigger).entries.values)
    }

    /// The entries a listing adds to ``postEntries(content:route:trigger:)``.
    static func listedEntries(id: String, nextFireDate: Date) -> [(key: String, value: DBusValue)] {
        [(ListedKeys.id.name, .string(id))] + ListedKeys.fireDateEntries(seconds: nextFireSeconds(nextFireDate))
    }

    private static func nextFireSeconds(_ date: Date) -> Int64 {
        Int64(date.timeIntervalSince1970.rounded(.up))
    }

    private static func post(content: NotificationContent, route: ResponseRoute?, trigger: NotificationTrigger?)
        -> NotificationPost
    {
        let postRoute: PostRoute? =
            switch route {
            case .command(let argv)?: .command(argv)
            case .application(_, let action)?: .application(action: action)
            case .poster?, nil: nil
            }
        return NotificationPost(content: content, route: postRoute, schedule: trigger.flatMap(PostSchedule.init))
    }
}
