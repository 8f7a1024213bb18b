import DBusCore
import DBusTestSupport
import NotificationBridgeAPI

/// Makes random calls of `io.github.NotificationBridge1`, each with the answer the daemon must give.
///
/// The daemon reads a value in nested variants (`<<'text'>>`) as the value inside, as `gdbus` users may write it, and
/// takes seconds in any numeric type: those are not defects.
///
/// Every call either breaks the method's signature (answered by DBusCore with `InvalidArgs`), names a method the
/// interface does not have, or has the right signature with at least one defect the daemon must refuse (an unknown,
/// repeated or empty key; a value of a type the key does not take; a value out of range; a malformed id), or is a
/// read-only call that is valid by construction. None of them may change the daemon's state, so the state after the
/// run must equal the state before it.
struct MalformedCallGenerator {
    /// What the daemon must answer.
    enum Expected: Sendable, Equatable, CustomStringConvertible {
        /// An error with exactly this name.
        case error(String)
        /// A reply with exactly these values.
        case reply([DBusValue])
        /// A reply of this signature (the content is the daemon's to choose).
        case replyOfSignature(String)

        var description: String {
            switch self {
            case .error(let name): "error \(name)"
            case .reply(let values): "reply \(values)"
            case .replyOfSignature(let signature): "a reply of signature '\(signature)'"
            }
        }
    }

    struct Call: Sendable, CustomStringConvertible {
        let method: String
        let arguments: [DBusValue]
        let expected: Expected
        /// The defect, in words.
        let defect: String

        var description: String {
            let shown = "\(arguments)"
            let cut = shown.count > 300 ? shown.prefix(300) + "…" : shown
            return "\(method)(\(cut)) [\(defect)] expecting \(expected)"
        }
    }

    static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
    static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
    static let invalidArgument = "io.github.NotificationBridge1.Error.InvalidArgument"
    static let unknownCategory = "io.github.NotificationBridge1.Error.UnknownCategory"
    static let unknownNotification = "io.github.NotificationBridge1.Error.UnknownNotification"

    /// The signature each method takes.
    static let signatures: [String: String] = [
        BridgeMethod.registerCategory.name: "saa{sv}a{sv}", BridgeMethod.removeCategory.name: "s",
        BridgeMethod.listCategories.name: "", BridgeMethod.post.name: "a{sv}",
        BridgeMethod.withdraw.name: "s", BridgeMethod.withdrawAll.name: "a{sv}", BridgeMethod.listPending.name: "a{sv}",
        BridgeMethod.listDelivered.name: "a{sv}",
        BridgeMethod.waitForResponse.name: "s", BridgeMethod.getServerInformation.name: "",
    ]

    /// The keys of each dictionary and the signatures each takes.
    static let postKeys: [String: Set<String>] = [
        PostKeys.title.name: ["s"], PostKeys.body.name: ["s"], PostKeys.appName.name: ["s"],
        PostKeys.desktopEntry.name: ["s"], PostKeys.icon.name: ["s"], PostKeys.image.name: ["s"],
        PostKeys.category.name: ["s"], PostKeys.actions.name: ["aa{sv}"], PostKeys.userInfo.name: ["s"],
        PostKeys.defaultAction.name: ["s"], PostKeys.sound.name: ["s"], PostKeys.urgency.name: ["s", "y", "i"],
        PostKeys.timeout.name: ["i"], PostKeys.resident.name: ["b"], PostKeys.transient.name: ["b"],
        PostKeys.thread.name: ["s"], PostKeys.replaces.name: ["s"], PostKeys.badge.name: ["i"],
        PostKeys.exec.name: ["as"], PostKeys.appAction.name: ["b", "s"], PostKeys.fireDate.name: numbers.union(["s"]),
        PostKeys.timeZone.name: ["s"], PostKeys.delay.name: numbers, PostKeys.repeat.name: ["s"],
    ]
    /// Seconds may come in any numeric type.
    static let numbers: Set<String> = ["d", "x", "t", "i", "u", "n", "q", "y"]
    static let actionKeys: [String: Set<String>] = [
        ActionKeys.id.name: ["s"], ActionKeys.title.name: ["s"], ActionKeys.activation.name: ["s"],
        ActionKeys.destructive.name: ["b"], ActionKeys.authenticationRequired.name: ["b"],
        ActionKeys.behavior.name: ["s"], ActionKeys.textInputButtonTitle.name: ["s"],
        ActionKeys.textInputPlaceholder.name: ["s"], ActionKeys.textInputFallback.name: ["s"],
    ]
    static let filterKeys: [String: Set<String>] = [
        FilterKeys.appName.name: ["s"], FilterKeys.category.name: ["s"], FilterKeys.thread.name: ["s"],
    ]
    static let optionKeys: [String: Set<String>] = [
        CategoryOptionKeys.minimalActions.name: ["as"], CategoryOptionKeys.reportsDismissal.name: ["b"],
    ]

    /// Values of the right type that the daemon must refuse, by key of a notification.
    static let badPostValues: [(String, DBusValue)] = [
        (PostKeys.timeout.name, .int32(-5)), (PostKeys.badge.name, .int32(-1)),
        (PostKeys.urgency.name, .string("extreme")), (PostKeys.urgency.name, .byte(7)),
        (PostKeys.userInfo.name, .string("{bad")), (PostKeys.userInfo.name, .string("[1]")),
        (PostKeys.exec.name, .strings([])), (PostKeys.exec.name, .strings(["relative/program"])),
        (PostKeys.exec.name, .strings(["/nonexistent/program"])), (PostKeys.delay.name, .double(-1)),
        (PostKeys.delay.name, .double(.nan)), (PostKeys.delay.name, .double(.infinity)),
        (PostKeys.replaces.name, .string("../../etc/passwd")), (PostKeys.replaces.name, .string("0123456789ABCDEF")),
        (PostKeys.sound.name, .string("")), (PostKeys.fireDate.name, .string("tomorrow")),
        (PostKeys.fireDate.name, .string("2026-02-30T09:00:00")), (PostKeys.timeZone.name, .string("Mars/Olympus")),
        (PostKeys.repeat.name, .string("fortnight")), (PostKeys.appAction.name, .boolean(true)),
    ]

    private var random: SeededGenerator

    init(seed: UInt64) { random = SeededGenerator(seed: seed) }

    mutating func next() -> Call {
        switch int(100) {
        case 0..<12: return wrongSignature()
        case 12..<14: return unknownMethod()
        case 14..<40: return post()
        case 40..<52: return registerCategory()
        case 52..<57: return removeCategory()
        case 57..<65: return idCall(pick([BridgeMethod.withdraw.name, BridgeMethod.waitForResponse.name]))
        case 65..<90:
            return filterCall(
                pick([BridgeMethod.withdrawAll.name, BridgeMethod.listPending.name, BridgeMethod.listDelivered.name]))
        default: return readOnly()
        }
    }

    // MARK: Calls

    private mutating func wrongSignature() -> Call {
        let method = pick(Array(Self.signatures.keys).sorted())
        while true {
            let arguments = (0..<int(4)).map { _ in value(depth: 0) }
            let signature = arguments.map(\.signature.rawValue).joined()
            if signature != Self.signatures[method] {
                return Call(
                    method: method, arguments: arguments, expected: .error(Self.invalidArgs),
                    defect: "signature '\(signature)'")
            }
        }
    }

    private mutating func unknownMethod() -> Call {
        let name = pick([
            "Notify", "post", "PostAll", "Withdraw2", "GetCapabilities",
            "X" + String(word().filter { $0.isLetter || $0.isNumber }),
        ])
        return Call(method: name, arguments: [], expected: .error(Self.unknownMethod), defect: "unknown method")
    }

    private mutating func post() -> Call {
        var entries = validPostEntries()
        let defect = breakDictionary(&entries, keys: Self.postKeys, semantic: Self.badPostValues, nested: true)
        return Call(
            method: BridgeMethod.post.name, arguments: [dictionary(entries)], expected: .error(Self.invalidArgument),
            defect: defect)
    }

    private mutating func registerCategory() -> Call {
        var id = DBusValue.string("org.example.fuzz\(int(1000))")
        var actions = [validAction("a"), validAction("b")]
        var options: [DBusDictionaryEntry] = []
        let defect: String
        switch int(4) {
        case 0:
            let bad = pick(["", "bad id!", String(repeating: "c", count: 300), "tab\there", "a/b", "new\nline"])
            id = .string(bad)
            defect = "category id \(bad.prefix(20))"
        case 1:
            var entries = actions[0].stringKeyedEntries!.map {
                DBusDictionaryEntry(key: .string($0.key), value: .variant($0.value))
            }
            defect =
                "actions[0]: "
                + breakDictionary(&entries, keys: Self.actionKeys, semantic: Self.badActionValues, nested: false)
            actions[0] = dictionary(entries)
        case 2:
            defect =
                "options: "
                + breakDictionary(
                    &options, keys: Self.optionKeys,
                    semantic: [
                        (CategoryOptionKeys.minimalActions.name, .strings(["zzz"])),
                        (CategoryOptionKeys.minimalActions.name, .strings(["a", "b", "a"])),
                    ], nested: false)
        default:
            actions = [actions[0], actions[0]]
            defect = "the same action twice"
        }
        return Call(
            method: BridgeMethod.registerCategory.name,
            arguments: [id, .array(element: "a{sv}", actions), dictionary(options)],
            expected: .error(Self.invalidArgument), defect: defect)
    }

    static let badActionValues: [(String, DBusValue)] = [
        (ActionKeys.id.name, .string("")), (ActionKeys.id.name, .string("default")),
        (ActionKeys.id.name, .string("has space")), (ActionKeys.title.name, .string("")),
        (ActionKeys.activation.name, .string("sideways")), (ActionKeys.behavior.name, .string("telepathy")),
        (ActionKeys.textInputFallback.name, .string("maybe")),
    ]

    private mutating func removeCategory() -> Call {
        let id = string()
        return Call(
            method: BridgeMethod.removeCategory.name, arguments: [.string(id)], expected: .error(Self.unknownCategory),
            defect: "unregistered category")
    }

    private mutating func idCall(_ method: String) -> Call {
        let wellFormed = bool()
        let id = wellFormed ? String((0..<16).map { _ in pick(Array("0123456789abcdef")) }) : string()
        let isID = id.utf8.count == 16 && id.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
        return Call(
            method: method, arguments: [.string(id)],
            expected: .error(isID ? Self.unknownNotification : Self.invalidArgument),
            defect: isID ? "unknown id" : "malformed id")
    }

    private mutating func filterCall(_ method: String) -> Call {
        var entries: [DBusDictionaryEntry] = []
        for key in Self.filterKeys.keys.sorted() where bool() {
            entries.append(DBusDictionaryEntry(key: .string(key), value: .variant(.string("fuzz-" + word()))))
        }
        // A valid filter selects nothing: the fuzzing connections posted nothing, and no app has these names.
        let empty: [DBusValue] =
            method == BridgeMethod.withdrawAll.name ? [.strings([])] : [.array(element: "a{sv}", [])]
        if bool() {
            return Call(method: method, arguments: [dictionary(entries)], expected: .reply(empty), defect: "none")
        }
        let defect = breakDictionary(&entries, keys: Self.filterKeys, semantic: [], nested: true)
        return Call(
            method: method, arguments: [dictionary(entries)], expected: .error(Self.invalidArgument),
            defect: defect)
    }

    private mutating func readOnly() -> Call {
        if bool() {
            return Call(
                method: BridgeMethod.listCategories.name, arguments: [], expected: .replyOfSignature("aa{sv}"),
                defect: "none")
        }
        return Call(
            method: BridgeMethod.getServerInformation.name, arguments: [], expected: .replyOfSignature("a{sv}"),
            defect: "none")
    }

    // MARK: Dictionaries

    private mutating func validPostEntries() -> [DBusDictionaryEntry] {
        var entries: [String: DBusValue] = [
            PostKeys.title.name: .string("Fuzz " + word()), PostKeys.appName.name: .string("Fuzz"),
        ]
        if bool() { entries[PostKeys.body.name] = .string(string()) }
        if bool() { entries[PostKeys.urgency.name] = .string(pick(["low", "normal", "critical"])) }
        if bool() { entries[PostKeys.timeout.name] = .int32(Int32(int(10_000))) }
        if bool() { entries[PostKeys.actions.name] = .array(element: "a{sv}", [validAction("ok")]) }
        if bool() { entries[PostKeys.delay.name] = .double(Double(1 + int(1000))) }
        return entries.sorted { $0.key < $1.key }.map {
            DBusDictionaryEntry(key: .string($0.key), value: .variant($0.value))
        }
    }

    private func validAction(_ id: String) -> DBusValue {
        .vardict([
            ActionKeys.id.name: .string(id), ActionKeys.title.name: .string(id.uppercased()),
            ActionKeys.activation.name: .string("background"),
        ])
    }

    /// Puts one to three defects in `entries` and says what they are.
    private mutating func breakDictionary(
        _ entries: inout [DBusDictionaryEntry], keys: [String: Set<String>], semantic: [(String, DBusValue)],
        nested: Bool
    ) -> String {
        var defects: [String] = []
        for _ in 0..<(1 + int(3)) {
            switch int(semantic.isEmpty ? 3 : 4) {
            case 0:
                var key = string()
                while keys[key] != nil { key = string() }
                entries.append(DBusDictionaryEntry(key: .string(key), value: .variant(value(depth: 0))))
                defects.append("unknown key")
            case 1:
                let key = pick(keys.keys.sorted())
                var wrong = value(depth: 0)
                while keys[key]!.contains(wrong.unwrappedVariant.signature.rawValue) { wrong = value(depth: 0) }
                entries.removeAll { $0.key == .string(key) }
                entries.append(DBusDictionaryEntry(key: .string(key), value: .variant(wrong)))
                defects.append("'\(key)' of type '\(wrong.unwrappedVariant.signature)'")
            case 2:
                let key = entries.isEmpty ? pick(keys.keys.sorted()) : entries[int(entries.count)].key.stringValue!
                let allowed = keys[key].map { pick($0.sorted()) } ?? "s"
                entries.append(DBusDictionaryEntry(key: .string(key), value: .variant(sample(allowed))))
                entries.append(DBusDictionaryEntry(key: .string(key), value: .variant(sample(allowed))))
                defects.append("'\(key)' twice")
            default:
                let (key, bad) = pick(semantic)
                entries.removeAll { $0.key == .string(key) }
                entries.append(DBusDictionaryEntry(key: .string(key), value: .variant(bad)))
                defects.append("'\(key)' is \(bad)")
            }
        }
        entries.shuffle(using: &random)
        return defects.joined(separator: ", ")
    }

    private func dictionary(_ entries: [DBusDictionaryEntry]) -> DBusValue {
        .dictionary(key: "s", value: "v", entries)
    }

    /// A value of one of the signatures a key takes.
    private mutating func sample(_ signature: String) -> DBusValue {
        switch signature {
        case "s": .string(string())
        case "y": .byte(UInt8(int(256)))
        case "i": .int32(Int32(truncatingIfNeeded: random.next()))
        case "b": .boolean(bool())
        case "x": .int64(Int64(truncatingIfNeeded: random.next()))
        case "d": .double(Double(int(1_000_000)) / 7)
        case "u": .uint32(UInt32(truncatingIfNeeded: random.next()))
        case "as": .strings((0..<int(4)).map { _ in string() })
        default: .array(element: "a{sv}", [validAction("x")])
        }
    }

    // MARK: Random values

    /// A random value: any type, nested, with strings of every kind and random bytes.
    mutating func value(depth: Int) -> DBusValue {
        let leaf = depth > 6 || int(3) == 0
        if leaf {
            switch int(13) {
            case 0: return .byte(UInt8(int(256)))
            case 1: return .boolean(bool())
            case 2: return .int16(Int16(truncatingIfNeeded: random.next()))
            case 3: return .uint16(UInt16(truncatingIfNeeded: random.next()))
            case 4: return .int32(Int32(truncatingIfNeeded: random.next()))
            case 5: return .uint32(UInt32(truncatingIfNeeded: random.next()))
            case 6: return .int64(Int64(truncatingIfNeeded: random.next()))
            case 7: return .uint64(random.next())
            case 8: return .double(Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF))
            case 9: return .objectPath(pick(["/", "/a/b", "/io/github/NotificationBridge"]))
            case 10: return .signature(pick(["", "s", "a{sv}", "(ii)aay"]))
            default: return .string(string())
            }
        }
        switch int(6) {
        case 0:
            // Random bytes, as a variant would carry a blob.
            return .variant(.array(element: "y", (0..<int(64)).map { _ in .byte(UInt8(int(256))) }))
        case 1:
            // Deep nesting: variants in variants.
            var nested = DBusValue.string("bottom")
            for _ in 0..<(1 + int(24)) { nested = .variant(nested) }
            return nested
        case 2:
            let element = value(depth: depth + 1)
            let items = (0..<int(4)).map { _ in sameType(as: element, depth: depth + 1) }
            return .array(element: element.signature, [element] + items)
        case 3:
            let entries = (0..<int(4)).map { _ in
                DBusDictionaryEntry(key: .string(string()), value: .variant(value(depth: depth + 1)))
            }
            return .dictionary(key: "s", value: "v", entries)
        case 4:
            return .structure((0..<(1 + int(3))).map { _ in value(depth: depth + 1) })
        default:
            return .variant(value(depth: depth + 1))
        }
    }

    /// Another value with the signature of `example` (for array elements), or `example` again.
    private mutating func sameType(as example: DBusValue, depth: Int) -> DBusValue {
        switch example {
        case .string: .string(string())
        case .int32: .int32(Int32(truncatingIfNeeded: random.next()))
        case .byte: .byte(UInt8(int(256)))
        default: example
        }
    }

    /// A random string: empty, a word, a key look-alike, Unicode of every plane, control characters, or huge.
    mutating func string() -> String {
        switch int(5000) {
        case 0: return String(repeating: pick(["x", "é", "🙂"]), count: 100_000 + int(200_000))
        case 1..<400: return ""
        case 400..<1400: return pick(Array(Self.postKeys.keys).sorted()) + pick(["", "s", "-", " ", "\u{200B}"])
        case 1400..<2400:
            return String(
                String.UnicodeScalarView(
                    (0..<int(40)).compactMap { _ in
                        Unicode.Scalar(UInt32(1 + int(pick([0x80, 0x800, 0xD7FF, 0x10FFFF]))))
                    }))
        case 2400..<2800: return pick(["$(touch x)", "`id`", "; rm -rf /", "'\"", "\n\t\r", "%s%n", "../../"])
        default: return word()
        }
    }

    private mutating func word() -> String {
        String((0..<(1 + int(12))).map { _ in pick(Array("abcdefghijklmnopqrstuvwxyz-.0123456789")) })
    }

    private mutating func int(_ upperBound: Int) -> Int { Int.random(in: 0..<upperBound, using: &random) }
    private mutating func bool() -> Bool { Bool.random(using: &random) }
    private mutating func pick<T>(_ items: [T]) -> T { items[int(items.count)] }
}
