import DBusCore
import NotificationBridge
import NotificationModel

import Foundation

/// A delivered notification as `ListDelivered` returns it: the keys `Post` takes (those that were set), plus `id`;
/// a scheduled one as `ListPending` returns it, with its scheduling keys (`fire-date`, `time-zone`, `in`, `calendar`,
/// `repeat`) and `next-fire-date` (x, seconds since 1970) too.
enum NotificationCoding {
    static func encode(
        id: String, content: NotificationContent, route: ResponseRoute?, nextFireDate: Date? = nil,
        trigger: NotificationTrigger? = nil
    ) -> DBusValue {
        var entries = BridgeWireFormat.entries(of: content)
        entries["id"] = .string(id)
        switch route {
        case .command(let argv)?: entries["exec"] = .strings(argv)
        case .application(_, let action?)?: entries["app-action"] = .string(action)
        case .application(_, nil)?: entries["app-action"] = .boolean(true)
        case .poster?, nil: break
        }
        if let trigger { entries.merge(BridgeWireFormat.entries(of: trigger)) { _, new in new } }
        if let nextFireDate {
            entries["next-fire-date"] = .int64(Int64(nextFireDate.timeIntervalSince1970.rounded(.up)))
        }
        return .vardict(entries)
    }
}
