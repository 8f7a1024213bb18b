import DBusCore
import Foundation
import NotificationModel

/// A `Post(a{sv} notification)` call, read and checked: what to show, where responses go, what it replaces.
///
/// Keys (every one optional, but `title` or `body` must say something):
///
/// | key | type | meaning |
/// |---|---|---|
/// | `title`, `body` | s | the summary and the text below it (plain text) |
/// | `app-name` | s | the application it is posted under; it owns the notification |
/// | `desktop-entry` | s | the app's desktop id, without `.desktop` |
/// | `icon` | s | icon name or `file://` URI |
/// | `image` | s | path of an image shown in it |
/// | `category` | s | a registered category, whose actions it shows |
/// | `actions` | aa{sv} | actions of its own, instead of a category's |
/// | `user-info` | s | a JSON object, returned with every response |
/// | `default-action` | s | label of the click on the body (reported as action `default`) |
/// | `sound` | s | `'default'`, `'none'`, an absolute sound file path, or a sound theme name |
/// | `urgency` | s or y | `'low'`, `'normal'`, `'critical'`, or 0–2 |
/// | `timeout` | i | milliseconds; -1 the server's default, 0 never |
/// | `resident`, `transient` | b | stays after an action; skips the server's history |
/// | `thread` | s | groups related notifications |
/// | `badge` | i | count on the app's launcher icon (0 hides it) |
/// | `replaces` | s | id of a showing notification of the same app to update in place |
/// | `exec` | as | responses go to this command (argv) |
/// | `app-action` | b or s | responses go to the app of `desktop-entry` as an action |
/// | `hints` | a{sv} | server hints of the caller's own, added to the bridge's (not those it sets: see ``ownedHints``) |
///
/// Scheduling keys (without them the notification is shown at once):
///
/// | key | type | meaning |
/// |---|---|---|
/// | `fire-date` | x or s | seconds since 1970 (an instant), or `'YYYY-MM-DDTHH:MM:SS'` (needs `time-zone`) |
/// | `time-zone` | s | `'local'`: the fire date is a wall-clock time in the user's zone, and follows it |
/// | `in` | d, x or u | seconds from now (a time interval) |
/// | `repeat` | s or b | `'minute'` … `'year'`, from the first fire date; `true` (every match) with `calendar` |
/// | `calendar` | a{sv} | the next wall-clock time matching `month`, `day`, `weekdays`, `hour`, `minute`, `second` |
package struct PostRequest: Sendable {
    package var content: NotificationContent
    /// The route chosen by the notification itself, or `nil` for the posting connection.
    var route: ResponseRoute?
    var replaces: String?
    /// When to show it; `nil` for now.
    var trigger: NotificationTrigger?
    /// Server hints of the caller's own, sent after the bridge's.
    var hints: [String: DBusValue] = [:]

    static let keys = [
        "title", "body", "app-name", "desktop-entry", "icon", "image", "category", "actions", "user-info",
        "default-action", "sound", "urgency", "timeout", "resident", "transient", "thread", "replaces", "badge",
        "exec", "app-action", "hints",
    ]
    static let schedulingKeys = ["fire-date", "time-zone", "in", "repeat", "calendar"]
    /// The `time-zone` values that mean "the user's zone, whatever it is when the notification fires".
    static let followingZoneNames = ["local", "user", "current", "system", "floating"]

    /// Reads a notification dictionary.
    ///
    /// - Parameter defaultAppName: the app name of a notification that names none.
    /// - Parameter now: the time `in` counts from when it is combined with `repeat`.
    /// - Throws: `InvalidArgument` for anything that is wrong.
    package init(_ value: DBusValue, defaultAppName: String, now: Date = Date()) throws(DBusFailure) {
        let reader = try VariantDictionary(value, place: "notification", known: Self.keys + Self.schedulingKeys)
        self.trigger = try Self.trigger(reader, now: now)
        var content = NotificationContent(
            title: try reader.string("title", example: "<'Backup finished'>") ?? "",
            body: try reader.string("body", example: "<'42 files copied'>") ?? "",
            appName: try reader.string("app-name", example: "<'Mail'>") ?? defaultAppName,
            desktopEntry: try reader.string("desktop-entry", example: "<'org.example.Mail'>"),
            icon: try reader.string("icon", example: "<'mail-unread'>"),
            image: try reader.string("image", example: "<'/home/ann/avatar.png'>"),
            defaultActionLabel: try reader.string("default-action", example: "<'Open'>"),
            categoryID: try reader.string("category", example: "<'org.example.mail.message'>"),
            threadID: try reader.string("thread", example: "<'conversation-42'>"),
            isResident: try reader.boolean("resident") ?? false,
            isTransient: try reader.boolean("transient") ?? false)
        if let sound = try reader.string("sound", example: "<'message-new-instant'>") {
            content.sound = try Self.sound(sound, reader)
        }
        if let urgency = reader.value("urgency") {
            content.urgency = try Self.urgency(urgency, reader)
        }
        if let timeout = try reader.int32("timeout", example: "<5000>") {
            guard let value = NotificationTimeout(wireValue: timeout) else {
                throw reader.invalid("timeout", "is \(timeout); use a number of milliseconds, -1 for the server's "
                    + "default or 0 for never")
            }
            content.timeout = value
        }
        if let badge = try reader.int32("badge", example: "<3>") {
            guard badge >= 0 else { throw reader.invalid("badge", "is \(badge); use 0 or more (0 hides the badge)") }
            content.badge = Int(badge)
        }
        if let text = try reader.string("user-info", example: #"<'{"mail": 42}'>"#) {
            content.userInfo = try Self.userInfo(text, reader)
        }
        if let actions = try reader.dictionaries("actions", example: ActionCoding.example) {
            content.actions = try ActionCoding.decode(actions)
        }
        self.content = content
        self.replaces = try reader.string("replaces", example: "<'3f9c2a7e1b4d5c6a'>")
        if let replaces { try NotificationID.check(replaces, argument: "notification key 'replaces'") }
        self.route = try Self.route(reader, content: content)
        self.hints = try Self.hints(reader, content: content)
    }

    /// The server hints the bridge sets itself, and the key of `Post` that sets each instead.
    static let ownedHints: [String: String] = [
        "urgency": "the key 'urgency'", "desktop-entry": "the key 'desktop-entry'", "image-path": "the key 'image'",
        "image_path": "the key 'image'", "sound-name": "the key 'sound'", "sound-file": "the key 'sound'",
        "suppress-sound": "the key 'sound' with <'none'>", "resident": "the key 'resident'",
        "transient": "the key 'transient'", "sender-pid": "nothing: the bridge sends its own process id",
        "x-kde-reply-placeholder-text": "a text-input action's 'text-input-placeholder'",
        "x-kde-reply-submit-button-text": "a text-input action's 'text-input-button-title'",
    ]

    /// `hints`: an `a{sv}` of server hints, none of them one the bridge sets (``ownedHints``, `x-kde-reply-*`, and
    /// `category` when the notification has a category).
    private static func hints(_ reader: VariantDictionary, content: NotificationContent) throws(DBusFailure)
        -> [String: DBusValue]
    {
        guard let value = reader.value("hints") else { return [:] }
        guard case .dictionary(let key, let valueType, let entries) = value, key == "s", valueType == "v" else {
            throw reader.wrongType("hints", value, expected: "a{sv}", example: "<{'x-canonical-append': <true>}>")
        }
        var hints: [String: DBusValue] = [:]
        for entry in entries {
            guard let name = entry.key.stringValue else { continue }
            if let instead = ownedHints[name] {
                throw reader.invalid("hints", "has \(quotedForMessage(name)), which the bridge sets itself; use "
                    + instead)
            }
            if name.hasPrefix("x-kde-reply-") {
                throw reader.invalid("hints", "has \(quotedForMessage(name)); the bridge sets the x-kde-reply-* hints "
                    + "from the notification's text-input action")
            }
            if name == "category", let categoryID = content.categoryID {
                throw reader.invalid("hints", "has 'category', which the bridge sets from the key 'category' "
                    + "(\(quotedForMessage(categoryID))); leave one of them out")
            }
            // One variant level is the a{sv}'s own; what is inside is the hint's value as given.
            if case .variant(let inner) = entry.value { hints[name] = inner } else { hints[name] = entry.value }
        }
        return hints
    }

    private static func sound(_ text: String, _ reader: VariantDictionary) throws(DBusFailure) -> NotificationSound {
        switch text {
        case "": throw reader.invalid("sound", "is empty; use 'default', 'none', a sound file path or a sound name")
        case "default": return .default
        case "none": return .none
        case _ where text.hasPrefix("/"): return .file(text)
        default: return .named(text)
        }
    }

    private static func urgency(_ value: DBusValue, _ reader: VariantDictionary) throws(DBusFailure)
        -> NotificationUrgency
    {
        let urgency: NotificationUrgency?
        switch value {
        case .string(let name): urgency = NotificationUrgency(name: name)
        case .byte(let level): urgency = NotificationUrgency(rawValue: level)
        case .int32(let level): urgency = UInt8(exactly: level).flatMap(NotificationUrgency.init(rawValue:))
        default: throw reader.wrongType("urgency", value, expected: "s", example: "<'critical'>")
        }
        guard let urgency else {
            let shown = value.stringValue.map { quotedForMessage($0) } ?? value.description
            throw reader.invalid("urgency", "is \(shown); use 'low', 'normal' or 'critical' (or 0, 1, 2)")
        }
        return urgency
    }

    private static func userInfo(_ text: String, _ reader: VariantDictionary) throws(DBusFailure)
        -> [String: JSONValue]
    {
        let limit = NotificationLimits.maxUserInfoBytes
        guard text.utf8.count <= limit else {
            throw reader.invalid("user-info", "is \(text.utf8.count) bytes; at most \(limit) are allowed, keep large "
                + "data elsewhere and put a reference to it in user-info")
        }
        let parsed: JSONValue
        do {
            parsed = try JSONValue(parsing: text)
        } catch {
            throw reader.invalid("user-info", "is not JSON: \(error); give a JSON object, e.g. "
                + #"'user-info': <'{"mail": 42}'>"#)
        }
        guard case .object(let members) = parsed else {
            throw reader.invalid("user-info", "is JSON but not an object; wrap the value in one, e.g. "
                + #"'user-info': <'{"value": 42}'>"#)
        }
        return members
    }

    private static func route(_ reader: VariantDictionary, content: NotificationContent) throws(DBusFailure)
        -> ResponseRoute?
    {
        let argv = try reader.strings("exec", example: "<['/usr/bin/my-handler', '--flag']>")
        let appAction = reader.value("app-action")
        if argv != nil, appAction != nil {
            throw BridgeError.invalid("notification has both 'exec' and 'app-action'; responses go to one place, "
                + "keep one of them")
        }
        if let argv {
            try CommandLauncher.check(argv)
            return .command(argv)
        }
        guard let appAction else { return nil }
        let actionName: String?
        switch appAction {
        case .boolean(false): return nil
        case .boolean(true): actionName = nil
        case .string(let name): actionName = name
        default: throw reader.wrongType("app-action", appAction, expected: "b", example: "<true> or <'respond'>")
        }
        guard let entry = content.desktopEntry else {
            throw reader.invalid("app-action", "needs 'desktop-entry': the desktop id of the app that receives the "
                + "action, e.g. 'desktop-entry': <'org.example.Mail'>")
        }
        guard !entry.hasPrefix(":"), DBusNames.isValidBusName(entry) else {
            throw reader.invalid("app-action", "needs a 'desktop-entry' that is a D-Bus name such as "
                + "'org.example.Mail' (the app's bus name); \(quotedForMessage(entry)) is not")
        }
        if let actionName {
            guard isActionName(actionName) else {
                throw reader.invalid("app-action", "is \(quotedForMessage(actionName)), which is not an action name; "
                    + "use letters, digits, '-' and '.' (as GApplication actions do)")
            }
        } else if let bad = content.actions.first(where: { !isActionName($0.id) }) {
            throw reader.invalid("app-action", "is true, so action ids name the app's actions, but "
                + "\(quotedForMessage(bad.id)) cannot (use letters, digits, '-' and '.'); rename it, or give "
                + "'app-action' one action name, e.g. <'notification-response'>")
        }
        return .application(desktopEntry: entry, action: actionName)
    }

    // MARK: Scheduling

    private static let fireDateForms =
        "use seconds since 1970 for an instant, e.g. 'fire-date': <int64 1767254400>, or a wall-clock time with "
        + "'time-zone', e.g. 'fire-date': <'2026-01-01T09:00:00'>, 'time-zone': <'local'>"

    /// The trigger the scheduling keys describe, or `nil` when there are none.
    private static func trigger(_ reader: VariantDictionary, now: Date) throws(DBusFailure) -> NotificationTrigger? {
        if let calendar = try TriggerCoding.calendarTrigger(reader) { return calendar }
        let rule = try repeatRule(reader)
        let followsZone = try followsTimeZone(reader)
        if reader.contains("in") {
            if reader.contains("fire-date") {
                throw BridgeError.invalid(
                    "notification has both 'fire-date' and 'in'; it fires once first, so keep one of them")
            }
            if followsZone {
                throw reader.invalid("time-zone", "goes with 'fire-date'; 'in' counts elapsed seconds, which no zone "
                    + "moves, so leave 'time-zone' out")
            }
            let seconds = try interval(reader)
            let trigger: NotificationTrigger
            if let rule {
                trigger = .date(.instant(secondsSince1970: now.timeIntervalSince1970 + seconds), repeat: rule)
            } else {
                trigger = .timeInterval(seconds: seconds)
            }
            try check(trigger, key: "in", reader)
            return trigger
        }
        guard let value = reader.value("fire-date") else {
            if rule != nil {
                throw reader.invalid("repeat", "needs 'fire-date' or 'in' to say when it fires first, e.g. "
                    + "'in': <60.0>, 'repeat': <'hour'>")
            }
            if followsZone {
                throw reader.invalid("time-zone", "needs 'fire-date': a wall-clock time such as "
                    + "<'2026-01-01T09:00:00'>")
            }
            return nil
        }
        let fireDate: FireDate
        switch value {
        case .string(let text):
            guard let time = LocalDateTime(parsing: text) else {
                throw reader.invalid("fire-date", "is \(quotedForMessage(text)), which is not YYYY-MM-DDTHH:MM:SS; "
                    + fireDateForms)
            }
            guard followsZone else {
                throw reader.invalid("fire-date", "is a wall-clock time, which needs 'time-zone': <'local'> (the "
                    + "user's zone, followed when it changes); for an absolute instant give seconds since 1970, e.g. "
                    + "<int64 1767254400>")
            }
            fireDate = .wallClock(time)
        default:
            guard let seconds = number(value) else {
                throw reader.wrongType("fire-date", value, expected: "x", example: "<int64 1767254400>")
            }
            if followsZone {
                // As UILocalNotification does with a time zone: the instant's wall-clock time in the user's zone.
                guard seconds.isFinite, abs(seconds) < 1e12 else {
                    throw reader.invalid("fire-date", "is \(seconds); " + fireDateForms)
                }
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = TimeZone.current
                let parts = calendar.dateComponents(
                    [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: seconds))
                fireDate = .wallClock(
                    LocalDateTime(
                        year: parts.year ?? 0, month: parts.month ?? 0, day: parts.day ?? 0, hour: parts.hour ?? 0,
                        minute: parts.minute ?? 0, second: parts.second ?? 0))
            } else {
                fireDate = .instant(secondsSince1970: seconds)
            }
        }
        let trigger = NotificationTrigger.date(fireDate, repeat: rule)
        try check(trigger, key: "fire-date", reader)
        return trigger
    }

    private static func check(_ trigger: NotificationTrigger, key: String, _ reader: VariantDictionary)
        throws(DBusFailure)
    {
        do throws(TriggerValidationError) {
            try trigger.validate()
        } catch {
            throw reader.invalid(key, "is not a valid time: \(error); " + (key == "in"
                ? "use a number of seconds above 0, e.g. 'in': <60.0>" : fireDateForms))
        }
    }

    /// `in`: seconds from now, above zero.
    private static func interval(_ reader: VariantDictionary) throws(DBusFailure) -> Double {
        let value = reader.value("in")!
        guard let seconds = number(value) else {
            throw reader.wrongType("in", value, expected: "d", example: "<60.0> or <uint32 60>")
        }
        guard seconds.isFinite, seconds > 0 else {
            throw reader.invalid("in", "is \(seconds); use a number of seconds above 0, e.g. 'in': <60.0>")
        }
        guard seconds <= NotificationTrigger.maximumInterval else {
            throw reader.invalid("in", "is \(seconds) seconds, more than 100 years; use 'fire-date' for far dates")
        }
        return seconds
    }

    private static func repeatRule(_ reader: VariantDictionary) throws(DBusFailure) -> RepeatRule? {
        let names = RepeatRule.Interval.allCases.map(\.rawValue)
        if case .boolean? = reader.value("repeat") {
            throw reader.invalid("repeat", "is a boolean, which goes with 'calendar'; with 'fire-date' or 'in' give an "
                + "interval: " + names.map { "'\($0)'" }.joined(separator: ", "))
        }
        guard let name = try reader.choice("repeat", names) else { return nil }
        return RepeatRule.Interval(rawValue: name).map { .interval($0) }
    }

    /// Whether `time-zone` asks for a wall-clock time that follows the user's zone.
    private static func followsTimeZone(_ reader: VariantDictionary) throws(DBusFailure) -> Bool {
        guard let zone = try reader.string("time-zone", example: "<'local'>") else { return false }
        let current = TimeZone.current.identifier
        guard Self.followingZoneNames.contains(zone.lowercased()) || zone == current else {
            throw reader.invalid("time-zone", "is \(quotedForMessage(zone)); use 'local' (the user's zone, followed "
                + "when it changes); for a time in a fixed zone give 'fire-date' as seconds since 1970 without "
                + "'time-zone'")
        }
        return true
    }

    /// A number of seconds in any numeric D-Bus type.
    private static func number(_ value: DBusValue) -> Double? {
        switch value {
        case .double(let v): v
        case .int64(let v): Double(v)
        case .uint64(let v): Double(v)
        case .int32(let v): Double(v)
        case .uint32(let v): Double(v)
        case .int16(let v): Double(v)
        case .uint16(let v): Double(v)
        case .byte(let v): Double(v)
        default: nil
        }
    }

    /// Whether `name` is valid as a `GAction` name: letters, digits, `-` and `.`, at most 255 bytes.
    static func isActionName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 255 && name.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."):
                true
            default: false
            }
        }
    }
}
