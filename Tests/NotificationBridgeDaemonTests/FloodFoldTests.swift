import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationModel
import NotificationServerKit
import Testing

@testable import NotificationBridgeDaemon

/// Flood control on the one delivery path: an app over its limit has the excess folded into one notification that
/// counts them, while every post stays listed and, once the fold leaves the screen, in the history.
@Suite("Flood control: the fold on the server")
struct FloodFoldTests {
    /// Sets `app`'s flood limit, as the user does with `notification-bridge settings APP --flood-limit TEXT`.
    static func setLimit(_ fixture: DaemonFixture, app: String, _ text: String) async throws {
        var change = SettingsChange()
        change.floodLimit = try FloodLimit.parse(text)
        try await fixture.call(BridgeMethod.setSettings.name, [.string(app), change.entries.value])
    }

    /// Posts `count` notifications of `app` titled "`app` 0", "`app` 1", …, in `thread` if given.
    static func flood(
        _ fixture: DaemonFixture, app: String, count: Int, thread: (id: String, label: String)? = nil
    ) async throws -> [String] {
        var ids: [String] = []
        for index in 0..<count {
            var post = FocusRestoreTests.notification("\(app) \(index)", app: app)
            if let thread {
                post[PostKeys.thread.name] = .string(thread.id)
                post[PostKeys.summaryArgument.name] = .string(thread.label)
            }
            ids.append(try await fixture.post(post))
        }
        return ids
    }

    /// The ids `ListDelivered` lists for `app`.
    static func delivered(_ fixture: DaemonFixture, app: String) async throws -> [String] {
        let reply = try await fixture.call(
            BridgeMethod.listDelivered.name, [.vardict([FilterKeys.appName.name: .string(app)])])
        guard case .array(_, let items)? = reply.first else { throw TestSupportError("ListDelivered gave \(reply)") }
        return items.compactMap { WireEntries($0)?[ListedKeys.id] }
    }

    /// Waits, within a bound, until the server shows a notification titled `summary`, and returns it.
    static func awaitShown(_ summary: String, _ fixture: DaemonFixture) async throws -> ServedNotification {
        let server = try fixture.scripted
        return try await withTimeout(waitingFor: "the server to show '\(summary)'") {
            while true {
                if let shown = await server.shownNotifications.first(where: { $0.summary == summary }) { return shown }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    /// Waits, within a bound, until `ListDelivered` lists `count` of `app`.
    static func awaitDelivered(_ count: Int, app: String, _ fixture: DaemonFixture) async throws {
        try await withTimeout(waitingFor: "\(count) of \(app) listed by ListDelivered") {
            while try await delivered(fixture, app: app).count != count { try await Task.sleep(for: .milliseconds(20)) }
        }
    }

    @Test("200 posts from one app show the first 10 and one notification counting the other 190; all 200 listed")
    func twoHundredPosts() async throws {
        try await DaemonFixture.with { fixture in
            try await Self.setLimit(fixture, app: "Mail", "10/1m")
            let started = ContinuousClock.now
            let ids = try await Self.flood(fixture, app: "Mail", count: 200)
            let took = ContinuousClock.now - started
            let fold = try await Self.awaitShown("Mail: 190 more", fixture)
            #expect(fold.body == "Mail 199", "the fold shows the newest it counts")
            #expect(fold.actions.map(\.label).contains("Dismiss all"), "\(fold.actions)")
            let shown = try await fixture.scripted.shownNotifications.filter { $0.appName == "Mail" }
            #expect(
                Set(shown.map(\.summary)) == Set((0..<10).map { "Mail \($0)" } + ["Mail: 190 more"]),
                "the first 10 one by one, then the fold only (posted in \(took))")
            let listed = try await Self.delivered(fixture, app: "Mail")
            #expect(Set(listed) == Set(ids) && listed.count == 200, "every post is listed, folded or not")
        }
    }

    @Test("a thread's flood is counted apart from its app's other notifications, and its fold names the thread")
    func threadCountsApart() async throws {
        try await DaemonFixture.with { fixture in
            try await Self.setLimit(fixture, app: "Chat", "3/1m")
            _ = try await Self.flood(fixture, app: "Chat", count: 8, thread: ("ann", "Ann"))
            _ = try await Self.flood(fixture, app: "Chat", count: 3)
            let fold = try await Self.awaitShown("Chat: 5 more from Ann", fixture)
            #expect(fold.body == "Chat 7")
            let summaries = try await fixture.scripted.shownNotifications.map(\.summary)
            #expect(
                !summaries.contains { $0.hasPrefix("Chat: ") && $0 != fold.summary },
                "three posts outside the thread are within the limit: \(summaries)")
            #expect(try await Self.delivered(fixture, app: "Chat").count == 11)
        }
    }

    @Test("a click on the fold keeps what it counted in the history, where each can still be answered")
    func clickKeepsInHistory() async throws {
        try await DaemonFixture.with { fixture in
            try await Self.setLimit(fixture, app: "Mail", "2/1m")
            let ids = try await Self.flood(fixture, app: "Mail", count: 6)
            let fold = try await Self.awaitShown("Mail: 4 more", fixture)
            try await fixture.scripted.invokeAction(id: fold.id, key: NotificationResponse.defaultActionID)
            try await Self.awaitDelivered(2, app: "Mail", fixture)
            let folded = Array(ids.suffix(4))
            let history = try await HistoryTests.history(fixture)
            #expect(Set(history.map(\.id)) == Set(folded) && history.allSatisfy(\.isAnswerable), "\(history.map(\.id))")
            try await HistoryTests.act(fixture, folded[0], NotificationResponse.defaultActionID)
            let answered = try await HistoryTests.ended(folded[0], app: "Mail", in: fixture)
            #expect(answered.ending == .responded, "answered from the history")
        }
    }

    @Test("Dismiss all on the fold dismisses every post it counted; the ones shown on their own stay")
    func dismissAll() async throws {
        try await DaemonFixture.with { fixture in
            try await Self.setLimit(fixture, app: "Mail", "2/1m")
            let ids = try await Self.flood(fixture, app: "Mail", count: 6)
            let fold = try await Self.awaitShown("Mail: 4 more", fixture)
            try await fixture.scripted.invokeAction(id: fold.id, key: FloodFolds.Action.dismissAll.rawValue)
            try await Self.awaitDelivered(2, app: "Mail", fixture)
            #expect(Set(try await Self.delivered(fixture, app: "Mail")) == Set(ids.prefix(2)))
            let history = try await HistoryTests.history(fixture)
            #expect(history.count == 4 && history.allSatisfy { $0.ending == .dismissed }, "\(history.map(\.ending))")
        }
    }

    @Test("a folded post its app withdraws leaves the count; withdrawing them all takes the fold off the screen")
    func withdrawalsLeaveTheFold() async throws {
        try await DaemonFixture.with { fixture in
            try await Self.setLimit(fixture, app: "Mail", "2/1m")
            let ids = try await Self.flood(fixture, app: "Mail", count: 6)
            _ = try await Self.awaitShown("Mail: 4 more", fixture)
            try await fixture.call(BridgeMethod.withdraw.name, [.string(ids[5])])
            let fewer = try await Self.awaitShown("Mail: 3 more", fixture)
            #expect(fewer.body == "Mail 4", "the newest still waiting, not the one withdrawn")
            try await fixture.call(
                BridgeMethod.withdrawAll.name, [.vardict([FilterKeys.appName.name: .string("Mail")])])
            let server = try fixture.scripted
            try await withTimeout(waitingFor: "the server to show nothing of Mail") {
                while await server.shownNotifications.contains(where: { $0.appName == "Mail" }) {
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
        }
    }

    @Test("the flood limit is kept in the settings file, read back from it edited by hand, and a bad one is refused")
    func limitInTheSettingsFile() async throws {
        try await DaemonFixture.with { fixture in
            try await Self.setLimit(fixture, app: "Mail", "30/1m")
            let file = fixture.directory.appendingPathComponent("config/notification-bridge/settings.ini")
            let written = try String(contentsOf: file, encoding: .utf8)
            #expect(written.contains("[app Mail]") && written.contains("flood-limit=30/1m"), "\(written)")
            let reply = try await fixture.call(BridgeMethod.getSettings.name, [.string("Mail")])
            let record = try AppSettingsRecord(try #require(reply.first))
            #expect(record.settings.floodLimit == (try FloodLimit.parse("30/1m")))

            try "[app Chat]\nflood-limit=2/1m\n".write(to: file, atomically: true, encoding: .utf8)
            try await withTimeout(waitingFor: "the daemon to read Chat's flood limit from the edited file") {
                while true {
                    let reply = try await fixture.call(BridgeMethod.getSettings.name, [.string("Chat")])
                    if try AppSettingsRecord(try #require(reply.first)).settings.floodLimit.count == 2 { return }
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
            _ = try await Self.flood(fixture, app: "Chat", count: 3)
            _ = try await Self.awaitShown("Chat: 1 more", fixture)

            let bad = try await fixture.gdbus(BridgeMethod.setSettings.name, "Mail", "{'flood-limit': <'lots'>}")
            #expect(bad.status != 0)
            #expect(bad.standardError.contains("such as '10/10s'"), "\(bad.standardError)")
        }
    }

    @Test("with no limit set, every post is shown on its own")
    func offByDefault() async throws {
        try await DaemonFixture.with { fixture in
            _ = try await Self.flood(fixture, app: "Mail", count: 15)
            _ = try await Self.awaitShown("Mail 14", fixture)
            let shown = try await fixture.scripted.shownNotifications.filter { $0.appName == "Mail" }
            #expect(shown.count == 15)
        }
    }
}
