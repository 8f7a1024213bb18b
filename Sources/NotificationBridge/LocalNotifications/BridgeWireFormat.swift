import DBusCore
import NotificationModel

/// Notifications, actions and triggers as `io.github.NotificationBridge1` writes them: the keys `Post` and
/// `RegisterCategory` take, which `ListPending` and `ListDelivered` return.
///
/// One description serves both sides: the daemon lists what it holds with it, and ``LocalNotificationClient`` posts
/// with it.
public enum BridgeWireFormat {
    /// The keys of `Post` that describe the content (not the handler, not the trigger): those that are set, and
    /// `title`, `body`, `urgency`, `timeout`, `resident`, `transient` and `user-info` (JSON object text) always.
    public static func entries(of content: NotificationContent) -> [String: DBusValue] {
        var entries: [String: DBusValue] = [
            "title": .string(content.title), "body": .string(content.body),
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
        if !content.actions.isEmpty { entries["actions"] = value(of: content.actions) }
        if let badge = content.badge { entries["badge"] = .int32(Int32(clamping: badge)) }
        switch content.sound {
        case .default: break
        case .none: entries["sound"] = .string("none")
        case .named(let name): entries["sound"] = .string(name)
        case .file(let path): entries["sound"] = .string(path)
        }
        return entries
    }

    /// An action as one `a{sv}`: `id`, `title`, `activation`, `destructive`, `authentication-required`, `behavior`,
    /// and for text input `text-input-button-title`, `text-input-placeholder`, `text-input-fallback`.
    public static func value(of action: NotificationAction) -> DBusValue {
        var entries: [String: DBusValue] = [
            "id": .string(action.id), "title": .string(action.title),
            "activation": .string(action.activation.rawValue), "destructive": .boolean(action.isDestructive),
            "authentication-required": .boolean(action.requiresAuthentication),
            "behavior": .string(action.isTextInput ? "text-input" : "default"),
        ]
        if case .textInput(let input) = action.behavior {
            if let title = input.submitButtonTitle { entries["text-input-button-title"] = .string(title) }
            if let placeholder = input.placeholder { entries["text-input-placeholder"] = .string(placeholder) }
            entries["text-input-fallback"] = .string(action.textInputFallback.rawValue)
        }
        return .vardict(entries)
    }

    /// Actions as an `aa{sv}`.
    public static func value(of actions: [NotificationAction]) -> DBusValue {
        .array(element: "a{sv}", actions.map(value(of:)))
    }

    /// The scheduling keys of a trigger: `fire-date` (seconds since 1970 for an instant; `YYYY-MM-DDTHH:MM:SS` with
    /// `time-zone` `'local'` for a wall-clock time), `in` (seconds), `calendar` (`month`, `day`, `weekdays`, `hour`,
    /// `minute`, `second`) and `repeat` (an interval name, or a boolean for `in` and `calendar`).
    public static func entries(of trigger: NotificationTrigger) -> [String: DBusValue] {
        switch trigger {
        case .date(.instant(let seconds), let rule):
            var entries: [String: DBusValue] = ["fire-date": .int64(Int64(seconds.rounded(.down)))]
            if case .interval(let interval)? = rule { entries["repeat"] = .string(interval.rawValue) }
            return entries
        case .date(.wallClock(let time), let rule):
            var entries: [String: DBusValue] = ["fire-date": .string(time.description), "time-zone": .string("local")]
            if case .interval(let interval)? = rule { entries["repeat"] = .string(interval.rawValue) }
            return entries
        case .timeInterval(let seconds, let repeats):
            var entries: [String: DBusValue] = ["in": .double(seconds)]
            if repeats { entries["repeat"] = .boolean(true) }
            return entries
        case .calendar(let match, let repeats):
            var fields: [String: DBusValue] = [:]
            let numbers: [(String, Int?)] = [
                ("month", match.month), ("day", match.day), ("hour", match.hour), ("minute", match.minute),
                ("second", match.second),
            ]
            for case (let key, let value?) in numbers { fields[key] = .int32(Int32(clamping: value)) }
            if let weekdays = match.weekdays { fields["weekdays"] = .strings(weekdays.sorted().map(\.name)) }
            return ["calendar": .vardict(fields), "repeat": .boolean(repeats)]
        }
    }
}
