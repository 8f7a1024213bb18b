import ArgumentParser
import DBusCore
import NotificationModel

/// How urgent a notification is.
enum Urgency: String, CaseIterable, ExpressibleByArgument {
    case low, normal, critical
}

/// The options of a notification that `send` and `alert` share: how it looks and behaves, not what it offers.
struct PostOptions: ParsableArguments {
    @Option(name: [.customLong("app-name"), .customShort("a")], help: "The app it is posted under.")
    var appName: String?

    @Option(help: "The app's desktop id, without .desktop.")
    var desktopEntry: String?

    @Option(name: [.customLong("icon"), .customShort("i")], help: "An icon name or file:// URI.")
    var icon: String?

    @Option(help: "The path of an image shown in it.")
    var image: String?

    @Option(help: ArgumentHelp("'default', 'none', a sound name or an absolute sound file path.", valueName: "sound"))
    var sound: String?

    @Option(name: [.customLong("urgency"), .customShort("u")], help: "How urgent it is.")
    var urgency: Urgency?

    @Option(
        name: [.customLong("timeout"), .customShort("t"), .customLong("expire-time")],
        help: ArgumentHelp("Milliseconds it stays; -1 the server's default, 0 never.", valueName: "ms"))
    var timeout: Int32?

    @Flag(help: "It stays after an action.")
    var resident = false

    @Flag(name: [.customLong("transient"), .customShort("e")], help: "It skips the server's history.")
    var transient = false

    @Option(
        name: .customLong("user-info"),
        help: ArgumentHelp(
            "key=value returned with the response (repeatable); value is JSON if it parses, else a string.",
            valueName: "key=value"))
    var userInfo: [String] = []

    @Option(
        name: .customLong("hint"),
        help: ArgumentHelp(
            "A server hint (repeatable): NAME=VALUE with VALUE in GVariant text, or notify-send's TYPE:NAME:VALUE "
                + "(also after -h); hints the bridge sets itself are refused, naming the option to use.",
            valueName: "hint"),
        transform: { try HintSpec(parsing: $0) })
    var hints: [HintSpec] = []

    @Option(
        name: [.customLong("replace"), .customShort("r"), .customLong("replace-id")],
        help: ArgumentHelp("The id (as --print-id printed it) of a showing notification to update in place.",
            valueName: "id"))
    var replaces: String?

    @Option(
        name: [.customLong("server-category"), .customShort("c")],
        help: ArgumentHelp(
            "The server's category hint, e.g. email.arrived (notify-send's -c); not --category, which names the "
                + "bridge's action category.",
            valueName: "type"))
    var serverCategory: String?

    func validate() throws {
        if let timeout, timeout < -1 {
            throw ValidationError("--timeout \(timeout): use milliseconds, -1 for the server's default or 0 for never")
        }
        if sound == "" { throw ValidationError("--sound is empty; use 'default', 'none', a sound name or a path") }
        if serverCategory == "" {
            throw ValidationError("--server-category is empty; give a category such as email.arrived or device.added")
        }
        if resident, transient {
            throw ValidationError("--resident and --transient both given; a notification is kept or skipped, not both")
        }
        _ = try userInfoJSON()
        var checked: [String: DBusValue] = [:]
        try apply(hints: hints, to: &checked)
    }

    /// Whether the server's `category` hint is given, by `--server-category` or `--hint`.
    var setsCategoryHint: Bool { serverCategory != nil || hints.contains { $0.name == "category" } }

    /// `--user-info` as the JSON object text `Post` takes.
    func userInfoJSON() throws -> String? {
        guard !userInfo.isEmpty else { return nil }
        var members: [String: JSONValue] = [:]
        for item in userInfo {
            guard let equals = item.firstIndex(of: "="), equals != item.startIndex else {
                throw ValidationError("--user-info '\(item)': use key=value, e.g. --user-info mail=42")
            }
            let key = String(item[..<equals])
            let text = String(item[item.index(after: equals)...])
            guard members[key] == nil else {
                throw ValidationError("--user-info: the key '\(key)' is given twice; give each key once")
            }
            members[key] = (try? JSONValue(parsing: text)) ?? .string(text)
        }
        return JSONValue.object(members).jsonText
    }

    /// The hints the daemon has keys for become those keys (as notify-send users write them: `int:transient:1`);
    /// the rest go under `hints`, after the bridge's own.
    ///
    /// - Throws: `ValidationError` for a hint the bridge sets itself that no key takes, naming the option to use.
    private func apply(hints: [HintSpec], to entries: inout [String: DBusValue]) throws {
        var others: [String: DBusValue] = [:]
        for hint in hints {
            switch (hint.name, hint.value) {
            case ("urgency", .byte), ("urgency", .int32), ("urgency", .string): entries["urgency"] = hint.value
            case ("desktop-entry", .string): entries["desktop-entry"] = hint.value
            case ("image-path", .string), ("image_path", .string): entries["image"] = hint.value
            case ("sound-name", .string), ("sound-file", .string): entries["sound"] = hint.value
            case ("suppress-sound", .boolean(let flag)): if flag { entries["sound"] = .string("none") }
            case ("transient", .boolean), ("resident", .boolean): entries[hint.name] = hint.value
            case ("transient", .int32(let number)), ("resident", .int32(let number)):
                entries[hint.name] = .boolean(number != 0)
            case ("transient", .byte(let number)), ("resident", .byte(let number)):
                entries[hint.name] = .boolean(number != 0)
            default:
                if let error = hint.ownedError() { throw error }
                others[hint.name] = hint.value
            }
        }
        if let serverCategory { others["category"] = .string(serverCategory) }
        if !others.isEmpty { entries["hints"] = .vardict(others) }
    }

    /// The keys of `Post` these options set.
    func entries() throws -> [String: DBusValue] {
        var entries: [String: DBusValue] = [:]
        try apply(hints: hints, to: &entries)
        let strings: [(String, String?)] = [
            ("app-name", appName), ("desktop-entry", desktopEntry), ("icon", icon), ("image", image),
            ("sound", sound), ("urgency", urgency?.rawValue), ("replaces", replaces),
        ]
        for case (let key, let value?) in strings { entries[key] = .string(value) }
        if let timeout { entries["timeout"] = .int32(timeout) }
        if resident { entries["resident"] = .boolean(true) }
        if transient { entries["transient"] = .boolean(true) }
        if let userInfo = try userInfoJSON() { entries["user-info"] = .string(userInfo) }
        return entries
    }
}
