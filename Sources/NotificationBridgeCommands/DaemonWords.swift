import NotificationBridgeAPI

/// The daemon's messages are written for its D-Bus callers (method and key names); the command line says the same
/// in its own terms: the commands and options that do it.
enum DaemonWords {
    /// D-Bus methods, and the commands that call them.
    static let methods: [(method: BridgeMethod, command: String)] = [
        (.listCategories, "'notification-bridge category list'"),
        (.registerCategory, "'notification-bridge category add'"),
        (.removeCategory, "'notification-bridge category remove'"),
        (.waitForResponse, "'notification-bridge wait'"), (.withdrawAll, "'notification-bridge withdraw --all'"),
        (.withdraw, "'notification-bridge withdraw'"), (.listPending, "'notification-bridge list --pending'"),
        (.listDelivered, "'notification-bridge list'"), (.getServerInformation, "'notification-bridge server-info'"),
        (.getSettings, "'notification-bridge settings'"), (.setSettings, "'notification-bridge settings'"),
        (.attach, "'notification-bridge monitor'"), (.post, "'notification-bridge send'"),
        (.listHistory, "'notification-bridge history'"), (.act, "'notification-bridge act'"),
        (.turnOnFocus, "'notification-bridge focus on'"), (.turnOffFocus, "'notification-bridge focus off'"),
        (.setFocusSchedules, "'notification-bridge focus schedule'"),
        (.listFocusModes, "'notification-bridge focus modes'"),
    ]

    /// Dictionary keys (as the daemon names them in messages), and the options that set them (``KeyOptions``): every
    /// key of `Post` and of a category's options that an option sets, then the shorter forms some messages use.
    static let keys: [(key: String, option: String)] = {
        func named(_ place: String, _ table: [BridgeKeyInfo]) -> [(key: String, option: String)] {
            table.compactMap { info in KeyOptions.options[info.name].map { ("\(place) key '\(info.name)'", $0) } }
        }
        return named("options", CategoryOptionKeys.all) + named("notification", PostKeys.all) + [
            ("key '\(CategoryOptionKeys.minimalActions.name)'", "--minimal"),
            ("'\(PostKeys.replaces.name)'", "--replace"),
            ("option '\(ActOptionKeys.text.name)'", "--text"),
        ]
    }()

    /// `message` with the daemon's method and key names replaced by the commands and options a user types.
    static func inCommandLineTerms(_ message: String) -> String {
        var text = message
        for (key, option) in keys { text = text.replacing(key, with: option) }
        for (method, command) in methods { text = replacingWord(method.name, with: command, in: text) }
        return text
    }

    /// Replaces `word` where it stands alone (not inside a longer name).
    private static func replacingWord(_ word: String, with replacement: String, in text: String) -> String {
        var result = ""
        var rest = text[...]
        while let range = rest.firstRange(of: word) {
            let before = range.lowerBound == rest.startIndex ? result.last : rest[rest.index(before: range.lowerBound)]
            let after = range.upperBound == rest.endIndex ? nil : rest[range.upperBound]
            let standsAlone =
                !(before.map { $0.isLetter || $0.isNumber } ?? false)
                && !(after.map { $0.isLetter || $0.isNumber } ?? false)
            result += rest[..<range.lowerBound]
            result += standsAlone ? replacement : word
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
