import DBusCore
import DBusTestSupport
import NotificationBridgeAPI
import NotificationModel
import NotificationServerKit
import Testing

/// A chat app posting many messages of one conversation: one notification on the screen of a server that shows each
/// on its own, with a summary that counts them; every one of them on a server that groups by app.
@Suite("Threads")
struct ThreadTests {
    static let chat = "org.example.chat.message"

    /// Registers the chat category: a Reply button and a summary format.
    static func registerChat(_ fixture: DaemonFixture) async throws {
        var options = WireEntries()
        options[CategoryOptionKeys.summaryFormat] = "%u new messages from %@"
        try await fixture.call(
            BridgeMethod.registerCategory.name, [.string(chat), ActionList.plain(id: "reply"), options.value])
    }

    /// Posts message `number` of Ann's conversation; returns its id.
    static func postMessage(_ number: Int, _ fixture: DaemonFixture, category: String? = chat) async throws -> String {
        var post: [String: DBusValue] = [
            PostKeys.title.name: .string("Ann"), PostKeys.body.name: .string("Message \(number)"),
            PostKeys.appName.name: .string("Chat"), PostKeys.thread.name: .string("ann"),
            PostKeys.summaryArgument.name: .string("Ann"),
        ]
        if let category { post[PostKeys.category.name] = .string(category) }
        return try await fixture.post(post)
    }

    /// What `ListDelivered` gives, by id.
    static func delivered(_ fixture: DaemonFixture) async throws -> [String: ListedNotification] {
        let reply = try await fixture.call(BridgeMethod.listDelivered.name, [.vardict([:])])
        guard case .array(_, let values)? = reply.first else { throw TestSupportError("ListDelivered gave \(reply)") }
        let listed = values.compactMap(ListedNotification.init)
        return Dictionary(uniqueKeysWithValues: listed.map { ($0.id, $0) })
    }

    /// The one notification the server shows, once its body is `body`.
    static func shown(_ fixture: DaemonFixture, body: String) async throws -> ServedNotification {
        let server = try fixture.scripted
        return try await withTimeout(waitingFor: "the server to show \(body.debugDescription)") {
            while true {
                let shown = await server.shownNotifications
                if shown.count == 1, shown[0].body == body { return shown[0] }
                if shown.count > 1 { throw TestSupportError("the server shows \(shown.count) notifications") }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    @Test("twenty posts to a thread on dunst show one notification counting twenty; an action reaches the newest")
    func twentyPostsShowOne() async throws {
        try await DaemonFixture.with(.dunst) { fixture in
            try await Self.registerChat(fixture)
            let signals = try await fixture.client.signals(
                matching: DBusMatchRule(
                    sender: BridgeAPI.busName, path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName))
            var ids: [String] = []
            for number in 1...20 { ids.append(try await Self.postMessage(number, fixture)) }

            let shownNow = try await fixture.scripted.shownNotifications
            #expect(shownNow.count == 1, "one notification of the thread on the screen")
            let shown = try #require(shownNow.first)
            #expect(shown.summary == "Ann")
            #expect(shown.body == "Message 20\n20 new messages from Ann")
            #expect(shown.action("reply") != nil, "the newest's category's actions")

            let listed = try await Self.delivered(fixture)
            #expect(listed.count == 20, "the earlier ones stay listed")
            #expect(listed.values.filter { !$0.isOnScreen }.count == 19)
            #expect(listed[ids[19]]?.isOnScreen == true)
            #expect(listed[ids[19]]?.body == "Message 20", "the listing gives what was posted, not the summary")

            try await fixture.scripted.invokeAction(id: shown.id, key: "reply")
            let responded = try await withTimeout(waitingFor: "the response signal") {
                for await signal in signals where signal.member == BridgeSignal.responded.name { return signal }
                throw TestSupportError("the signals ended")
            }
            #expect(responded.arguments.first == .string(ids[19]), "the newest notification's handler")
            #expect(responded.arguments.dropFirst().first == .string("reply"))

            // dunst closes after an action: the thread ends with it, each earlier one reported closed.
            let closed = try await withTimeout(waitingFor: "Closed for all twenty") {
                var closed: Set<String> = []
                for await signal in signals where signal.member == BridgeSignal.closed.name {
                    if case .string(let id)? = signal.arguments.first { closed.insert(id) }
                    if closed.count == 20 { return closed }
                }
                throw TestSupportError("the signals ended")
            }
            #expect(closed == Set(ids))
            #expect(try await Self.delivered(fixture).isEmpty)
        }
    }

    @Test("withdrawing the newest brings back the one before; withdrawing an earlier one updates the count")
    func withdrawals() async throws {
        try await DaemonFixture.with(.dunst) { fixture in
            try await Self.registerChat(fixture)
            var ids: [String] = []
            for number in 1...3 { ids.append(try await Self.postMessage(number, fixture)) }
            let third = try await Self.shown(fixture, body: "Message 3\n3 new messages from Ann")

            try await fixture.call(BridgeMethod.withdraw.name, [.string(ids[2])])
            let second = try await Self.shown(fixture, body: "Message 2\n2 new messages from Ann")
            #expect(second.id == third.id, "in the same place on the screen")
            #expect(second.action("reply") != nil)
            let listed = try await Self.delivered(fixture)
            #expect(Set(listed.keys) == [ids[0], ids[1]])
            #expect(listed[ids[1]]?.isOnScreen == true)
            #expect(listed[ids[0]]?.isOnScreen == false)

            try await fixture.call(BridgeMethod.withdraw.name, [.string(ids[0])])
            let alone = try await Self.shown(fixture, body: "Message 2")
            #expect(alone.id == third.id)
            #expect(Set(try await Self.delivered(fixture).keys) == [ids[1]])

            // The one brought back answers for itself.
            try await fixture.scripted.invokeAction(id: alone.id, key: "reply")
            let reply = try await fixture.call(BridgeMethod.waitForResponse.name, [.string(ids[1])])
            #expect(reply.first == .string("reply"))
        }
    }

    @Test("the category's snooze button stays on a thread's notification brought back and on a count updated")
    func snoozeButtonStays() async throws {
        try await DaemonFixture.with(.dunst) { fixture in
            var options = WireEntries()
            options[CategoryOptionKeys.summaryFormat] = "%u new messages from %@"
            options[CategoryOptionKeys.snooze] = [SnoozeInterval.minutes(10)]
            try await fixture.call(
                BridgeMethod.registerCategory.name, [.string(Self.chat), ActionList.plain(id: "reply"), options.value])
            var ids: [String] = []
            for number in 1...3 { ids.append(try await Self.postMessage(number, fixture)) }
            let snooze = SnoozeInterval.minutes(10).actionKey
            let third = try await Self.shown(fixture, body: "Message 3\n3 new messages from Ann")
            #expect(third.action(snooze) != nil, "posted with the category's snooze button")

            try await fixture.call(BridgeMethod.withdraw.name, [.string(ids[2])])
            let second = try await Self.shown(fixture, body: "Message 2\n2 new messages from Ann")
            #expect(second.action(snooze) != nil, "brought back with it")

            try await fixture.call(BridgeMethod.withdraw.name, [.string(ids[0])])
            let alone = try await Self.shown(fixture, body: "Message 2")
            #expect(alone.action(snooze) != nil, "the count updated, with it")
        }
    }

    @Test("the user dismissing the one shown ends the whole thread")
    func dismissalEndsTheThread() async throws {
        try await DaemonFixture.with(.xfce4Notifyd) { fixture in
            var ids: [String] = []
            for number in 1...3 { ids.append(try await Self.postMessage(number, fixture, category: nil)) }
            let shown = try await Self.shown(fixture, body: "Message 3\n3 notifications from Ann")
            try await fixture.scripted.dismiss(id: shown.id)
            try await withTimeout(waitingFor: "the thread to end") {
                while try await !Self.delivered(fixture).isEmpty { try await Task.sleep(for: .milliseconds(20)) }
            }
            let failure = await #expect(throws: DBusFailure.self) {
                try await fixture.call(BridgeMethod.waitForResponse.name, [.string(ids[0])])
            }
            #expect(failure?.message.contains("dismissed by the user") == true)
        }
    }

    @Test("on GNOME Shell, which groups by app, twenty posts stay twenty, with a summary only when asked for")
    func gnomeShellKeepsEvery() async throws {
        try await DaemonFixture.with(.gnomeShell) { fixture in
            try await Self.registerChat(fixture)
            for number in 1...20 { _ = try await Self.postMessage(number, fixture) }
            let shown = try await fixture.scripted.shownNotifications
            #expect(shown.count == 20)
            #expect(shown.allSatisfy { !$0.body.contains("new messages") })
            let listed = try await Self.delivered(fixture)
            #expect(listed.count == 20)
            #expect(listed.values.allSatisfy { $0.isOnScreen })

            _ = try await fixture.post([
                PostKeys.title.name: .string("Ann"), PostKeys.body.name: .string("Message 21"),
                PostKeys.appName.name: .string("Chat"), PostKeys.thread.name: .string("ann"),
                PostKeys.category.name: .string(Self.chat), PostKeys.summaryArgument.name: .string("Ann"),
                PostKeys.threadSummary.name: .boolean(true),
            ])
            let last = try await fixture.scripted.shownNotifications
            #expect(last.count == 21)
            #expect(last.last?.body == "Message 21\n21 new messages from Ann")
        }
    }
}

extension ThreadTests {
    @Test("a summary format of 512 %@ with 64 posts of 1 KB arguments sends a body within the limit")
    func summaryStaysWithinTheBodyLimit() async throws {
        try await DaemonFixture.with(.dunst) { fixture in
            var options = WireEntries()
            options[CategoryOptionKeys.summaryFormat] = String(repeating: "%@", count: 512)
            try await fixture.call(
                BridgeMethod.registerCategory.name, [.string("flood"), ActionList.plain(id: "open"), options.value])
            for number in 0..<64 {
                _ = try await fixture.post([
                    PostKeys.title.name: .string("Flood"), PostKeys.thread.name: .string("all"),
                    PostKeys.category.name: .string("flood"),
                    PostKeys.summaryArgument.name: .string(
                        "\(number / 10)\(number % 10)" + String(repeating: "x", count: 1022)),
                ])
            }
            let shown = try await withTimeout(waitingFor: "the 64th post on the server") {
                while true {
                    let shown = try await fixture.scripted.shownNotifications
                    if shown.count == 1, shown[0].body.hasPrefix("63") { return shown[0] }
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
            #expect(shown.body.utf8.count <= NotificationLimits.maxBodyBytes, "\(shown.body.utf8.count) bytes sent")
            #expect(shown.body.hasSuffix(NotificationLimits.ellipsis))
        }
    }
}
