import ArgumentParser
import DBusCore
import NotificationBridgeAPI
import NotificationModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A notify-send command line as the daemon's `Post`: the same `Notify` reaches the server as notify-send would
/// send, under the id the command line names (`-r`) or a new one that `-p` can print in decimal.
struct NotifySendRequest {
    /// The `Post` dictionary.
    var entries: WireEntries
    /// The notification's id at the daemon: the `fixed-id` of ``entries``.
    var bridgeID: String
    /// The id `-p` prints, and `-r` takes back: the same number in decimal.
    var printedID: Int32
    /// What to print for each action id the daemon may report, by id.
    var actionNames: [String: String]
    /// The actions as the command line gave them, after notify-send's rules (empty ones dropped).
    var actions: [(name: String, label: String)]
    /// Whether the program waits for the notification to close (`-w`, or any action).
    var waits: Bool

    /// The notification for `options`.
    ///
    /// - Throws: ``NotifySendArguments/Mistake`` with notify-send's message for a malformed hint.
    init(_ options: NotifySendArguments) throws(NotifySendArguments.Mistake) {
        var entries = WireEntries()
        entries[PostKeys.title] = options.summary ?? ""
        entries[PostKeys.body] = options.body
        // notify-send's body is markup for a server that reads it, and sent as is.
        if options.body != nil { entries[PostKeys.bodyMarkup] = true }
        entries[PostKeys.appName] = options.appName ?? NotifySend.programName
        // -n names the app's icon; -i is then the image, as in libnotify's newer releases.
        if let appIcon = options.appIcon {
            entries[PostKeys.icon] = appIcon
            if let icon = options.icon { entries[PostKeys.image] = icon }
        } else if let icon = options.icon {
            entries[PostKeys.icon] = icon
        }
        entries.setUnchecked(PostKeys.urgency, .string(options.urgency.rawValue))
        if options.expireTime != -1 { entries.setUnchecked(PostKeys.timeout, .int32(max(options.expireTime, -1))) }
        if options.transient { entries[PostKeys.transient] = true }

        // The category first, then the hints in order: a later hint with the same name wins, as with notify-send.
        var hints = options.category.map { [HintSpec(name: HintSpec.categoryHint, value: .string($0))] } ?? []
        for text in options.hints {
            let hint = try NotifySendHint(parsing: text)
            // libnotify sets the sender's process id itself; the bridge sends its own.
            if hint.name != "sender-pid" { hints.append(HintSpec(name: hint.name, value: hint.value)) }
        }
        do {
            try HintSpec.apply(hints, serverCategory: nil, to: &entries)
        } catch {
            throw NotifySendArguments.Mistake(message: (error as? ValidationError)?.message ?? "\(error)")
        }

        actions = Self.actions(options.actions)
        var actionNames: [String: String] = [:]
        var specs: [ActionSpec] = []
        for (index, action) in actions.enumerated() {
            if action.name == NotificationResponse.defaultActionID {
                entries[PostKeys.defaultAction] = action.label
                actionNames[action.name] = action.name
                continue
            }
            // A name the bridge cannot take as an action id travels under one of its own, and is printed back.
            let id = Self.isUsableID(action.name) ? action.name : "notify-send-action-\(index)"
            specs.append(ActionSpec(id: id, title: action.label))
            actionNames[id] = action.name
        }
        if !specs.isEmpty {
            entries.setUnchecked(PostKeys.actions, .array(element: "a{sv}", specs.map(\.dictionary)))
        }
        self.actionNames = actionNames
        waits = options.wait || !actions.isEmpty

        if options.replaceID != 0 {
            printedID = options.replaceID
        } else {
            var generator = SystemRandomNumberGenerator()
            printedID = Int32.random(in: 1...Int32.max, using: &generator)
        }
        bridgeID = Self.bridgeID(of: printedID)
        entries[PostKeys.fixedID] = bridgeID
        self.entries = entries
    }

    /// The daemon's id (16 hexadecimal digits) for a number notify-send's `-r` takes.
    static func bridgeID(of number: Int32) -> String {
        let digits = String(UInt32(bitPattern: number), radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// notify-send's actions: `NAME=Label` or `Label` (named by its position among the `-A` options, from 0), both
    /// trimmed, those with an empty name or label left out; a name given again takes the later label in its first
    /// place.
    static func actions(_ texts: [String]) -> [(name: String, label: String)] {
        var result: [(name: String, label: String)] = []
        for (index, text) in texts.enumerated() {
            let name: String
            let label: String
            if let equals = text.firstIndex(of: "=") {
                name = trimmed(text[..<equals])
                label = trimmed(text[text.index(after: equals)...])
            } else {
                name = String(index)
                label = trimmed(text[...])
            }
            guard !name.isEmpty, !label.isEmpty else { continue }
            if let existing = result.firstIndex(where: { $0.name == name }) {
                result[existing].label = label
            } else {
                result.append((name, label))
            }
        }
        return result
    }

    private static func trimmed(_ text: Substring) -> String {
        let spaces: Set<Character> = [" ", "\t", "\n", "\r", "\u{0B}", "\u{0C}"]
        return String(text.drop { spaces.contains($0) }.reversed().drop { spaces.contains($0) }.reversed())
    }

    /// Whether the daemon takes `name` as an action id of its own.
    private static func isUsableID(_ name: String) -> Bool {
        !ActionSpec.reservedIDs.contains(name) && name.utf8.count <= NotificationLimits.maxIdentifierLength
            && name.unicodeScalars.allSatisfy {
                ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)))
                    || "-_.:".unicodeScalars.contains($0)
            }
    }
}

extension HintSpec {
    init(name: String, value: DBusValue) {
        self.name = name
        self.value = value
    }
}

extension WireEntries {
    /// The entries without actions: for a server that shows none.
    mutating func removeActions() {
        self[PostKeys.actions] = nil
        self[PostKeys.defaultAction] = nil
    }
}
