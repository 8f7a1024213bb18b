import DBusCore
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
///
/// `fire-date`, `time-zone` and `repeat` are reserved for scheduling, which is not available yet.
struct PostRequest: Sendable {
    var content: NotificationContent
    /// The route chosen by the notification itself, or `nil` for the posting connection.
    var route: ResponseRoute?
    var replaces: String?

    static let keys = [
        "title", "body", "app-name", "desktop-entry", "icon", "image", "category", "actions", "user-info",
        "default-action", "sound", "urgency", "timeout", "resident", "transient", "thread", "replaces", "badge",
        "exec", "app-action",
    ]
    static let schedulingKeys = ["fire-date", "time-zone", "repeat"]

    /// Reads a notification dictionary.
    ///
    /// - Parameter defaultAppName: the app name of a notification that names none.
    /// - Throws: `NotSupported` for scheduling keys, `InvalidArgument` for anything else that is wrong.
    init(_ value: DBusValue, defaultAppName: String) throws(DBusFailure) {
        let reader = try VariantDictionary(value, place: "notification", known: Self.keys + Self.schedulingKeys)
        if let key = Self.schedulingKeys.first(where: reader.contains) {
            throw DBusFailure(
                name: BridgeError.notSupported,
                message: "notification key '\(key)' asks for scheduling, which is not available yet; post without "
                    + Self.schedulingKeys.map { "'\($0)'" }.joined(separator: ", ") + " to show the notification now")
        }
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
