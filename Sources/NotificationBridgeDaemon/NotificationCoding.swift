import DBusCore
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
        var entries: [String: DBusValue] = [
            "id": .string(id), "title": .string(content.title), "body": .string(content.body),
            "urgency": .string(content.urgency.name), "timeout": .int32(content.timeout.wireValue),
            "resident": .boolean(content.isResident), "transient": .boolean(content.isTransient),
            "user-info": .string(JSONValue.object(content.userInfo).jsonText),
        ]
        let optional: [(String, String?)] = [
            ("app-name", content.appName), ("desktop-entry", content.desktopEntry), ("icon", content.icon),
            ("image", content.image), ("category", content.categoryID), ("default-action", content.defaultActionLabel),
            ("thread", content.threadID),
        ]
        for case (let key, let value?) in optional { entries[key] = .string(value) }
        if !content.actions.isEmpty { entries["actions"] = ActionCoding.encode(content.actions) }
        if let badge = content.badge { entries["badge"] = .int32(Int32(clamping: badge)) }
        switch content.sound {
        case .default: break
        case .none: entries["sound"] = .string("none")
        case .named(let name): entries["sound"] = .string(name)
        case .file(let path): entries["sound"] = .string(path)
        }
        switch route {
        case .command(let argv)?: entries["exec"] = .strings(argv)
        case .application(_, let action?)?: entries["app-action"] = .string(action)
        case .application(_, nil)?: entries["app-action"] = .boolean(true)
        case .poster?, nil: break
        }
        if let trigger { entries.merge(TriggerCoding.encode(trigger)) { _, new in new } }
        if let nextFireDate {
            entries["next-fire-date"] = .int64(Int64(nextFireDate.timeIntervalSince1970.rounded(.up)))
        }
        return .vardict(entries)
    }
}
