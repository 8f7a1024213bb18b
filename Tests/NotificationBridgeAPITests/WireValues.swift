import DBusCore
import DBusTestSupport
import NotificationBridgeAPI
import NotificationModel

/// Values of the interface's dictionaries drawn from a seed: each a value the wire can say (a sound path starts with
/// `/`, instants are whole seconds, a text-input fallback belongs to a text-input action).
struct WireValues {
    private var random: SeededGenerator

    init(seed: UInt64) { random = SeededGenerator(seed: seed &+ 0x9E37_79B9_7F4A_7C15) }

    mutating func next() -> UInt64 { random.next() }

    mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
    }

    mutating func bool() -> Bool { next() & 1 == 1 }

    mutating func maybe<T>(_ make: (inout WireValues) -> T) -> T? { bool() ? make(&self) : nil }

    mutating func pick<T>(_ choices: [T]) -> T { choices[int(in: 0...(choices.count - 1))] }

    mutating func text() -> String {
        String((0..<int(in: 1...12)).map { _ in pick(Array("abcXYZ 019éß,'\"<>{}-_")) })
    }

    mutating func identifier() -> String {
        String((0..<int(in: 1...12)).map { _ in pick(Array("abcdefxyz0189-.")) })
    }

    mutating func notificationID() -> String {
        String((0..<16).map { _ in pick(Array("0123456789abcdef")) })
    }

    mutating func action() -> NotificationAction {
        let activation: NotificationAction.Activation = bool() ? .foreground : .background
        let isTextInput = bool()
        return NotificationAction(
            id: identifier(), title: text(), activation: activation, isDestructive: bool(),
            requiresAuthentication: bool(),
            behavior: isTextInput
                ? .textInput(submitButtonTitle: maybe { $0.text() }, placeholder: maybe { $0.text() }) : .default,
            textInputFallback: isTextInput ? pick(NotificationAction.TextInputFallback.allCases) : .hide)
    }

    mutating func category() -> NotificationCategory {
        var actions: [NotificationAction] = []
        for index in 0..<int(in: 1...4) {
            var action = self.action()
            action.id = "a\(index)"
            actions.append(action)
        }
        let minimal = Array(actions.prefix(int(in: 0...min(2, actions.count))))
        var category = NotificationCategory(
            id: identifier(), actions: actions, minimalActions: minimal, reportsDismissal: bool(),
            summaryFormat: maybe { $0.pick(["%u new messages from %@", "%1$u more in %2$@", "100%% of %u"]) })
        category.snoozeIntervals = snoozeIntervals()
        category.reportsSnooze = bool()
        return category
    }

    /// Up to four distinct snooze intervals, from a second to seven days.
    mutating func snoozeIntervals() -> [SnoozeInterval] {
        var seconds: [Int] = []
        for _ in 0..<int(in: 0...4) {
            let next = pick([1, 60, 600, 3600, 7 * 86_400, int(in: 2...86_400)])
            if !seconds.contains(next) { seconds.append(next) }
        }
        return seconds.map(SnoozeInterval.init(seconds:))
    }

    mutating func userInfo() -> [String: JSONValue] {
        var members: [String: JSONValue] = [:]
        for _ in 0..<int(in: 0...3) {
            members[text()] = pick([.string(text()), .number(Double(int(in: -99...99))), .bool(bool()), .null])
        }
        return members
    }

    mutating func content() -> NotificationContent {
        var content = NotificationContent(
            title: text(), body: text(), appName: maybe { $0.text() },
            desktopEntry: maybe { "org.example." + $0.pick(["Mail", "Chat"]) },
            icon: maybe { $0.text() }, image: maybe { "/tmp/" + $0.identifier() },
            defaultActionLabel: maybe { $0.text() },
            sound: pick([.default, .none, .named("message-new-instant"), .file("/usr/share/sounds/bell.oga")]),
            userInfo: userInfo(), categoryID: maybe { $0.identifier() }, threadID: maybe { $0.identifier() },
            urgency: pick(NotificationUrgency.allCases),
            interruptionLevel: pick(NotificationInterruptionLevel.allCases),
            timeout: NotificationTimeout(wireValue: Int32(int(in: -1...60_000)))!,
            isResident: bool(), isTransient: bool(), badge: maybe { $0.int(in: 0...999) })
        if content.categoryID == nil { content.actions = (0..<int(in: 0...3)).map { _ in action() } }
        content.summaryArgument = maybe { $0.text() }
        content.summaryArgumentCount = int(in: 0...40)
        content.alwaysSummarizesThread = bool()
        content.snoozeIntervals = maybe { $0.snoozeIntervals() }
        return content
    }

    mutating func schedule() -> PostSchedule? {
        let interval = maybe { $0.pick(RepeatRule.Interval.allCases) }
        let time = LocalDateTime(
            year: int(in: 2000...2100), month: int(in: 1...12), day: int(in: 1...28), hour: int(in: 0...23),
            minute: int(in: 0...59), second: int(in: 0...59))
        var match = CalendarMatch()
        match.month = maybe { $0.int(in: 1...12) }
        match.day = maybe { $0.int(in: 1...28) }
        match.hour = int(in: 0...23)  // a match needs at least one field
        match.minute = maybe { $0.int(in: 0...59) }
        match.second = maybe { $0.int(in: 0...59) }
        match.weekdays = maybe { values in
            Set((0..<values.int(in: 1...3)).map { _ in values.pick(Array(CalendarMatch.Weekday.allCases)) })
        }
        return pick([
            nil,
            .date(.instant(secondsSince1970: Double(int(in: 1...4_000_000_000))), repeat: interval),
            .date(.wallClock(time), repeat: interval),
            .wallClockOfInstant(secondsSince1970: Double(int(in: 1...4_000_000_000)), repeat: interval),
            .delay(seconds: Double(int(in: 1...1_000_000)) / 4, repeat: interval),
            .calendar(match, repeats: bool()),
        ])
    }

    mutating func post() -> NotificationPost {
        var content = content()
        let route: PostRoute? = pick([
            nil, .command(["sh", "-c", text()]), .command(["/bin/true"]),
        ])
        var post = NotificationPost(
            content: content, route: route, replaces: maybe { $0.notificationID() }, schedule: schedule(),
            hints: bool() ? ["x-canonical-append": .boolean(bool()), "x-level": .int32(Int32(int(in: 0...9)))] : [:])
        if post.route == nil, bool() {
            content.desktopEntry = "org.example.Mail"
            content.actions = content.actions.map { action in
                var action = action
                action.id = action.id.filter { $0 != "_" }
                return action
            }
            post.content = content
            post.route = .application(action: maybe { _ in "notification-response" })
        }
        return post
    }

    mutating func response() -> BridgeResponse {
        BridgeResponse(
            notificationID: notificationID(), actionID: pick(["default", "dismiss", identifier()]),
            text: maybe { $0.text() }, activationToken: maybe { $0.identifier() }, userInfo: userInfo())
    }
}
