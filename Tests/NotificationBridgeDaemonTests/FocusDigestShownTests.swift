import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationServerKit
import Testing

@testable import NotificationBridgeDaemon

/// A focus mode that ends with many notifications held shows one digest that counts them, whose actions do what they
/// say, instead of a flood.
@Suite("The digest of a focus mode that ended")
struct FocusDigestShownTests {
    /// 100 notifications of three apps, 30 of them from Ann's conversation in Chat.
    static let counts = [("Mail", 50), ("Chat", 30), ("Calendar", 20)]

    /// Turns "sleep" on (letting nothing through), posts `counts`, turns it off and returns the digest the server got.
    static func digestAfterSleep(_ fixture: DaemonFixture) async throws -> ServedNotification {
        try await fixture.call(BridgeMethod.turnOnFocus.name, [.string("sleep"), FocusRequest(name: "sleep").options])
        for (app, count) in counts {
            for index in 0..<count {
                var post = FocusRestoreTests.notification("\(app) \(index)", app: app)
                if app == "Chat" {
                    post[PostKeys.thread.name] = .string("ann")
                    post[PostKeys.summaryArgument.name] = .string("Ann")
                }
                _ = try await fixture.post(post)
            }
        }
        try await fixture.call(BridgeMethod.turnOffFocus.name)
        return try await fixture.nextNotification()
    }

    /// How many `ListPending` lists as held, of every app.
    static func heldCount(_ fixture: DaemonFixture) async throws -> Int {
        var total = 0
        for (app, _) in counts { total += try await FocusRestoreTests.heldTitles(fixture, app: app).count }
        return total
    }

    /// Waits, within a bound, until `ListPending` lists `count` held.
    static func awaitHeld(_ count: Int, _ fixture: DaemonFixture) async throws {
        try await withTimeout(waitingFor: "\(count) held notifications listed") {
            while try await heldCount(fixture) != count { try await Task.sleep(for: .milliseconds(50)) }
        }
    }

    @Test("100 held of three apps arrive as one digest counting them by app and thread, and stay listed")
    func oneDigestWithCounts() async throws {
        try await DaemonFixture.with(doNotDisturb: DesktopDoNotDisturbTests.FedSwitch(on: false)) { fixture in
            let digest = try await Self.digestAfterSleep(fixture)
            #expect(digest.summary == "100 while sleep was on")
            #expect(digest.body == "Mail 50, Chat 30, Calendar 20, 30 from Ann")
            #expect(
                digest.actions.map(\.label).contains(["Show all", "Keep in history", "Dismiss all"]),
                "\(digest.actions)")
            #expect(try await Self.heldCount(fixture) == 100, "each is still listed, held, and none was shown")
        }
    }

    @Test("Dismiss all ends every held one as dismissed, in the history, and shows none")
    func dismissAll() async throws {
        try await DaemonFixture.with(doNotDisturb: DesktopDoNotDisturbTests.FedSwitch(on: false)) { fixture in
            let digest = try await Self.digestAfterSleep(fixture)
            try await fixture.scripted.invokeAction(id: digest.id, key: FocusDigest.Action.dismiss.rawValue)
            try await Self.awaitHeld(0, fixture)
            let history = try await HistoryTests.history(fixture)
            #expect(history.count == 100 && history.allSatisfy { $0.ending == .dismissed && !$0.isAnswerable })
        }
    }

    @Test("Keep in history ends every held one unanswered in the history, where Act still answers it")
    func keepInHistory() async throws {
        try await DaemonFixture.with(doNotDisturb: DesktopDoNotDisturbTests.FedSwitch(on: false)) { fixture in
            let digest = try await Self.digestAfterSleep(fixture)
            try await fixture.scripted.invokeAction(id: digest.id, key: FocusDigest.Action.history.rawValue)
            try await Self.awaitHeld(0, fixture)
            let history = try await HistoryTests.history(fixture)
            #expect(history.count == 100 && history.allSatisfy(\.isAnswerable), "\(history.first.map(\.ending) as Any)")
            let mail = try #require(history.first { $0.notification.post.content.appName == "Mail" })
            try await HistoryTests.act(fixture, mail.notification.id, "default")
            let answered = try await HistoryTests.ended(mail.notification.id, app: "Mail", in: fixture)
            #expect(answered.ending == .responded, "answered from the history")
        }
    }

    @Test("Show all shows every held one, in the order they came")
    func showAll() async throws {
        try await DaemonFixture.with(doNotDisturb: DesktopDoNotDisturbTests.FedSwitch(on: false)) { fixture in
            let digest = try await Self.digestAfterSleep(fixture)
            try await fixture.scripted.invokeAction(id: digest.id, key: FocusDigest.Action.showAll.rawValue)
            // Ann's 30 take one another's place on the server, as a thread's do: each is a Notify all the same.
            let events = fixture.events
            let shown = try await withTimeout(waitingFor: "the 100 held notifications on the server") {
                var shown: [String] = []
                for await event in events {
                    switch event {
                    case .notified(let notification), .replaced(_, let notification): shown.append(notification.summary)
                    default: continue
                    }
                    if shown.count == 100 { break }
                }
                return shown
            }
            #expect(shown.first == "Mail 0" && shown.last == "Calendar 19" && Set(shown).count == 100, "\(shown)")
            #expect(try await Self.heldCount(fixture) == 0)
        }
    }

    @Test("three held are shown one by one, as before, with no digest")
    func fewAreShown() async throws {
        try await DaemonFixture.with(doNotDisturb: DesktopDoNotDisturbTests.FedSwitch(on: false)) { fixture in
            try await fixture.call(
                BridgeMethod.turnOnFocus.name, [.string("sleep"), FocusRequest(name: "sleep").options])
            for index in 0..<FocusDigest.releasedOneByOne {
                _ = try await fixture.post(FocusRestoreTests.notification("Mail \(index)", app: "Mail"))
            }
            try await fixture.call(BridgeMethod.turnOffFocus.name)
            var shown: [String] = []
            for _ in 0..<FocusDigest.releasedOneByOne { shown.append(try await fixture.nextNotification().summary) }
            #expect(shown == ["Mail 0", "Mail 1", "Mail 2"])
        }
    }

    @Test("after kill -9 the digest's notifications are all still listed, each once, none lost")
    func digestSurvivesKill() async throws {
        try await SchedulingTests.withSetup { setup in
            @Sendable func call(_ method: BridgeMethod, _ arguments: [DBusValue] = []) async throws -> [DBusValue] {
                try await setup.client.call(
                    destination: BridgeAPI.busName, path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName,
                    method: method.name, arguments: arguments, timeout: .seconds(20))
            }
            /// The ids `method` lists.
            @Sendable func listed(_ method: BridgeMethod) async throws -> [String] {
                guard case .array(_, let items)? = try await call(method, [.vardict([:])]).first else { return [] }
                return items.compactMap { WireEntries($0)?[ListedKeys.id] }
            }

            let first = try await setup.startDaemon()
            _ = try await call(.turnOnFocus, [.string("sleep"), FocusRequest(name: "sleep").options])
            var ids: [String] = []
            for index in 0..<10 {
                let reply = try await call(
                    .post, [.vardict(FocusRestoreTests.notification("Mail \(index)", app: "Mail"))])
                ids.append(try reply.decode(String.self))
            }
            _ = try await call(.turnOffFocus)
            let digest = try await withTimeout(waitingFor: "the digest; daemon log: \(setup.logText)") {
                for await event in setup.events {
                    if case .notified(let notification) = event { return notification }
                }
                throw TestSupportError("the server stopped")
            }
            #expect(digest.summary == "10 while sleep was on")
            #expect(Set(try await listed(.listPending)) == Set(ids), "held, and listed, while the digest shows")

            first.signal(SIGKILL)
            #expect(await first.wait(within: .seconds(10)) == 128 + SIGKILL)
            let second = try await setup.startDaemon()
            defer { second.stop() }
            // Held again, or shown once the switch is read: either way each is listed, once. The two listings are two
            // calls: one may move from pending to delivered between them, so only a listing of its own may repeat none.
            let posted = ids.sorted()
            try await withTimeout(waitingFor: "the ten listed after the crash, each once; daemon log: \(setup.logText)")
            {
                while true {
                    let pending = try await listed(.listPending)
                    let delivered = try await listed(.listDelivered)
                    for listing in [pending, delivered] where Set(listing).count < listing.count {
                        throw TestSupportError("listed more than once: \(listing)")
                    }
                    if (pending + delivered).sorted() == posted { return }
                    try await Task.sleep(for: .milliseconds(50))
                }
            }
        }
    }
}
