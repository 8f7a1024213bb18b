import ArgumentParser
import DBusCore
import NotificationBridgeAPI
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
        name: [.customLong("level"), .customLong(PostKeys.interruptionLevel.name)],
        help: ArgumentHelp(
            "How much it may interrupt: passive (no sound, no popup where the server keeps a list), active (the "
                + "default), time-sensitive (" + NotificationInterruptionLevel.timeSensitiveRule + "), critical "
                + "(urgency critical, through every do-not-disturb, with sound).",
            valueName: "passive|active|time-sensitive|critical"))
    var level: String?

    @Option(
        name: .customLong(PostKeys.ifDoNotDisturb.name),
        help: ArgumentHelp(
            "While the desktop's do-not-disturb holds it back: hold (shown once it is off; the default) or drop.",
            valueName: "hold|drop"))
    var ifDoNotDisturb: String?

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
        help: ArgumentHelp(
            "The thread it belongs to, e.g. a conversation: where the server does not group notifications, the "
                + "thread's newest replaces the one shown, with a summary line.",
            valueName: "id"))
    var thread: String?

    @Option(
        help: ArgumentHelp(
            "What it adds to its thread's summary (the %@ of the category's --summary-format), e.g. the sender.",
            valueName: "argument"))
    var summaryArgument: String?

    @Option(help: ArgumentHelp("How many items it counts for in its thread's summary (1 by default).", valueName: "n"))
    var summaryCount: Int32?

    @Flag(help: "Add the thread's summary line also where the server groups notifications itself (GNOME, Plasma).")
    var threadSummary = false

    @Option(
        name: [.customLong("replace"), .customShort("r"), .customLong("replace-id")],
        help: ArgumentHelp(
            "The id (as --print-id printed it) of a showing notification to update in place.",
            valueName: "id"))
    var replaces: String?

    @Option(
        name: [.customLong("server-category"), .customShort("c")],
        help: ArgumentHelp(
            "The server's category hint, e.g. email.arrived (notify-send's -c); not --category, which names the "
                + "bridge's action category.",
            valueName: "type"))
    var serverCategory: String?

    @Option(
        help: ArgumentHelp(
            "Snooze buttons it offers, in place of its category's: \(SnoozeSpec.form).", valueName: "intervals"))
    var snooze: String?

    func validate() throws {
        if let snooze { _ = try SnoozeSpec.parse(snooze) }
        if let timeout, timeout < -1 {
            throw ValidationError("--timeout \(timeout): use milliseconds, -1 for the server's default or 0 for never")
        }
        if let level, NotificationInterruptionLevel(name: level) == nil {
            let names = NotificationInterruptionLevel.allCases.map(\.name)
            throw ValidationError(
                "--level '\(level)': use \(names.dropLast().joined(separator: ", ")) or \(names.last ?? "")")
        }
        if let ifDoNotDisturb, DoNotDisturbChoice(rawValue: ifDoNotDisturb) == nil {
            throw ValidationError("--if-do-not-disturb '\(ifDoNotDisturb)': use hold or drop")
        }
        if sound == "" { throw ValidationError("--sound is empty; use 'default', 'none', a sound name or a path") }
        if serverCategory == "" {
            throw ValidationError("--server-category is empty; give a category such as email.arrived or device.added")
        }
        if let summaryCount, summaryCount < 0 {
            throw ValidationError("--summary-count \(summaryCount): use 0 or more (1, the default, for one message)")
        }
        if thread == nil, summaryArgument != nil || summaryCount != nil || threadSummary {
            throw ValidationError(
                "--summary-argument, --summary-count and --thread-summary describe a thread; give --thread too")
        }
        if resident, transient {
            throw ValidationError("--resident and --transient both given; a notification is kept or skipped, not both")
        }
        _ = try userInfoJSON()
        var checked = WireEntries()
        try HintSpec.apply(hints, serverCategory: serverCategory, to: &checked)
    }

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

    /// The keys of `Post` these options set.
    func entries() throws -> WireEntries {
        var entries = WireEntries()
        try HintSpec.apply(hints, serverCategory: serverCategory, to: &entries)
        // Only the options given: the hints above may have set the same keys.
        if let appName { entries[PostKeys.appName] = appName }
        if let desktopEntry { entries[PostKeys.desktopEntry] = desktopEntry }
        if let icon { entries[PostKeys.icon] = icon }
        if let image { entries[PostKeys.image] = image }
        // Checked by the daemon, which says what is wrong with a sound name.
        if let sound { entries.setUnchecked(PostKeys.sound, .string(sound)) }
        if let urgency { entries.setUnchecked(PostKeys.urgency, .string(urgency.rawValue)) }
        if let level = level.flatMap(NotificationInterruptionLevel.init(name:)) {
            entries[PostKeys.interruptionLevel] = level
        }
        if let choice = ifDoNotDisturb.flatMap(DoNotDisturbChoice.init(rawValue:)) {
            entries[PostKeys.ifDoNotDisturb] = choice
        }
        if let replaces { entries.setUnchecked(PostKeys.replaces, .string(replaces)) }
        if let timeout { entries.setUnchecked(PostKeys.timeout, .int32(timeout)) }
        if resident { entries[PostKeys.resident] = true }
        if transient { entries[PostKeys.transient] = true }
        if let thread { entries.setUnchecked(PostKeys.thread, .string(thread)) }
        if let summaryArgument { entries.setUnchecked(PostKeys.summaryArgument, .string(summaryArgument)) }
        if let summaryCount { entries.setUnchecked(PostKeys.summaryArgumentCount, .int32(summaryCount)) }
        if threadSummary { entries[PostKeys.threadSummary] = true }
        if let userInfo = try userInfoJSON() { entries.setUnchecked(PostKeys.userInfo, .string(userInfo)) }
        if let snooze { entries[PostKeys.snooze] = try SnoozeSpec.parse(snooze) }
        return entries
    }
}
