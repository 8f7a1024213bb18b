import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationBridgeDaemon
import NotificationServerKit
import Synchronization
import Testing

/// The history of ended notifications (`ListHistory`) and answering them later (`Act`, `Present`).
@Suite("History and acting later")
struct HistoryTests {
    /// The history `filter` selects, as the fixture's client (or `connection`) sees it.
    static func history(
        _ fixture: DaemonFixture, _ filter: [String: DBusValue] = [:], from connection: DBusConnection? = nil
    ) async throws -> [HistoryEntry] {
        let reply = try await fixture.call(BridgeMethod.listHistory.name, [.vardict(filter)], from: connection)
        guard case .array(_, let items)? = reply.first else { throw TestSupportError("ListHistory answered \(reply)") }
        return items.compactMap(HistoryEntry.init)
    }

    /// Waits until the history of `appName` holds notification `id`, and returns its entry.
    static func ended(_ id: String, app appName: String, in fixture: DaemonFixture) async throws -> HistoryEntry {
        try await withTimeout(waitingFor: "notification \(id) in the history") {
            while true {
                let entries = try await history(fixture, [FilterKeys.appName.name: .string(appName)])
                if let entry = entries.first(where: { $0.id == id }) { return entry }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    static func act(
        _ fixture: DaemonFixture, _ id: String, _ action: String, text: String? = nil
    ) async throws {
        let options: [String: DBusValue] = text.map { [ActOptionKeys.text.name: .string($0)] } ?? [:]
        try await fixture.call(BridgeMethod.act.name, [.string(id), .string(action), .vardict(options)])
    }

    /// Posts a notification with action `pay` whose responses go to the recording command.
    static func postBill(_ fixture: DaemonFixture, textInput: Bool = false) async throws -> String {
        let command = fixture.directory.appendingPathComponent("bin/answer-ann").path
        return try await fixture.post([
            PostKeys.title.name: .string("Invoice due"), PostKeys.appName.name: .string("Billing"),
            PostKeys.actions.name: textInput
                ? ActionList.textInput(id: "pay") : ActionList.plain(id: "pay", activation: "background"),
            PostKeys.exec.name: .strings([command]), PostKeys.userInfo.name: .string(#"{"invoice":"2024-17"}"#),
        ])
    }

    @Test("an expired notification's action reaches its exec command with its user info, once")
    func expiredActionReachesCommand() async throws {
        try await DaemonFixture.with { fixture in
            let answer = try ExecRouteTests.installRecorder(in: fixture)
            let id = try await Self.postBill(fixture)
            let shown = try await fixture.nextNotification()
            #expect(try await fixture.scripted.expire(id: shown.id))

            let entry = try await Self.ended(id, app: "Billing", in: fixture)
            #expect(entry.ending == .expired)
            #expect(entry.isAnswerable)
            #expect(entry.notification.post.content.actions.map(\.id) == ["pay"], "the actions it offered are listed")

            try await Self.act(fixture, id, "pay")
            let read = try await ExecRouteTests.waitForAnswer(answer)
            #expect(try read("id") == id)
            #expect(try read("action") == "pay")
            #expect(try read("user-info") == #"{"invoice":"2024-17"}"#)

            let after = try await Self.ended(id, app: "Billing", in: fixture)
            #expect(after.ending == .responded && after.responseAction == "pay", "\(after)")
            let again = await outcome { try await Self.act(fixture, id, "pay") }
            #expect(
                (again.failure as? DBusFailure)?.name == BridgeError.notAnswerable.rawValue,
                "a second answer is refused: \(again)")
        }
    }

    @Test("a dismissed or withdrawn notification is refused with Error.NotAnswerable, saying why")
    func dismissedIsRefused() async throws {
        try await DaemonFixture.with { fixture in
            let dismissed = try await fixture.post([
                PostKeys.title.name: .string("Lunch?"), PostKeys.appName.name: .string("Chat"),
                PostKeys.actions.name: ActionList.plain(id: "yes"),
            ])
            let shown = try await fixture.nextNotification()
            try await fixture.scripted.dismiss(id: shown.id)
            #expect(try await Self.ended(dismissed, app: "Chat", in: fixture).ending == .dismissed)
            let refused = await outcome { try await Self.act(fixture, dismissed, "yes") }
            let failure = refused.failure as? DBusFailure
            #expect(failure?.name == BridgeError.notAnswerable.rawValue, "\(refused)")
            #expect(failure?.message.contains("dismissed by the user") == true, "\(refused)")

            let withdrawn = try await fixture.post([
                PostKeys.title.name: .string("Dinner?"), PostKeys.appName.name: .string("Chat"),
                PostKeys.actions.name: ActionList.plain(id: "yes"),
            ])
            _ = try await fixture.nextNotification()
            try await fixture.call(BridgeMethod.withdraw.name, [.string(withdrawn)])
            #expect(try await Self.ended(withdrawn, app: "Chat", in: fixture).ending == .withdrawn)
            let present = await outcome { try await fixture.call(BridgeMethod.present.name, [.string(withdrawn)]) }
            let presentFailure = present.failure as? DBusFailure
            #expect(presentFailure?.name == BridgeError.notAnswerable.rawValue, "\(present)")
            #expect(presentFailure?.message.contains("withdrawn by its app") == true, "\(present)")
        }
    }

    @Test("an expired notification with app-action is answered later through the app's ActivateAction")
    func expiredActionReachesApp() async throws {
        try await DaemonFixture.with { fixture in
            let app = try await TestApplication.start(on: fixture.bus, id: "org.example.Mail")
            let id = try await fixture.post([
                PostKeys.title.name: .string("New mail from Ann"), PostKeys.appName.name: .string("Mail"),
                PostKeys.desktopEntry.name: .string("org.example.Mail"), PostKeys.appAction.name: .boolean(true),
                PostKeys.actions.name: ActionList.plain(id: "open"),
            ])
            let shown = try await fixture.nextNotification()
            #expect(try await fixture.scripted.expire(id: shown.id))
            _ = try await Self.ended(id, app: "Mail", in: fixture)

            try await Self.act(fixture, id, "open")
            let call = try await app.calls.first(waitingFor: "ActivateAction")
            #expect(call.member == "ActivateAction")
            #expect(call.arguments.first == .string("open"))
            #expect("\(call.arguments)".contains(id), "the response names the notification: \(call.arguments)")
            await app.stop()
        }
    }

    @Test("a replaced notification is refused, pointing to the one that replaced it")
    func replacedIsRefused() async throws {
        try await DaemonFixture.with { fixture in
            let id = try await fixture.post([
                PostKeys.title.name: .string("Build 1 running"), PostKeys.appName.name: .string("CI"),
                PostKeys.actions.name: ActionList.plain(id: "stop"),
            ])
            _ = try await fixture.nextNotification()
            _ = try await fixture.post([
                PostKeys.title.name: .string("Build 1 passed"), PostKeys.appName.name: .string("CI"),
                PostKeys.replaces.name: .string(id),
            ])
            #expect(try await Self.ended(id, app: "CI", in: fixture).ending == .replaced)
            let refused = await outcome { try await Self.act(fixture, id, "stop") }
            let failure = refused.failure as? DBusFailure
            #expect(failure?.name == BridgeError.notAnswerable.rawValue, "\(refused)")
            #expect(failure?.message.contains("replaced by a newer notification") == true, "\(refused)")
        }
    }

    @Test("the history keeps the newest entries up to its limit")
    func boundedByCount() async throws {
        try await DaemonFixture.with(history: HistoryBounds(days: 7, limit: 3)) { fixture in
            var ids: [String] = []
            for index in 0..<5 {
                let id = try await fixture.post([
                    PostKeys.title.name: .string("Build \(index)"), PostKeys.appName.name: .string("CI"),
                ])
                _ = try await fixture.nextNotification()
                try await fixture.call(BridgeMethod.withdraw.name, [.string(id)])
                ids.append(id)
            }
            _ = try await Self.ended(ids[4], app: "CI", in: fixture)
            let entries = try await Self.history(fixture, [FilterKeys.appName.name: .string("CI")])
            #expect(entries.map(\.id) == ids.suffix(3).reversed(), "the three newest, newest first")
        }
    }

    @Test("an entry older than the history's days is no longer listed nor answerable; newer ones are")
    func boundedByAge() async throws {
        let now = Mutex(Date())
        try await DaemonFixture.with(
            history: HistoryBounds(days: 7, limit: 500), historyClock: { now.withLock { $0 } }
        ) { fixture in
            func ended(_ title: String) async throws -> String {
                let id = try await fixture.post([
                    PostKeys.title.name: .string(title), PostKeys.appName.name: .string("CI"),
                    PostKeys.actions.name: ActionList.plain(id: "retry"),
                ])
                let shown = try await fixture.nextNotification()
                #expect(try await fixture.scripted.expire(id: shown.id))
                _ = try await Self.ended(id, app: "CI", in: fixture)
                return id
            }
            let old = try await ended("Last week's build")
            now.withLock { $0 = $0.addingTimeInterval(6 * 86_400) }
            let recent = try await ended("Yesterday's build")
            now.withLock { $0 = $0.addingTimeInterval(2 * 86_400) }
            let filter = [FilterKeys.appName.name: DBusValue.string("CI")]
            #expect(try await Self.history(fixture, filter).map(\.id) == [recent], "8 days on, only the recent one")
            let refused = await outcome { try await Self.act(fixture, old, "retry") }
            #expect(
                (refused.failure as? DBusFailure)?.name == BridgeError.unknownNotification.rawValue, "\(refused)")
            let newest = try await ended("Today's build")
            #expect(try await Self.history(fixture, filter).map(\.id) == [newest, recent])
        }
    }

    @Test("another connection sees an app's history only by naming the app")
    func otherConnectionNamesTheApp() async throws {
        try await DaemonFixture.with { fixture in
            let id = try await fixture.post([
                PostKeys.title.name: .string("New mail"), PostKeys.appName.name: .string("Mail"),
            ])
            _ = try await fixture.nextNotification()
            try await fixture.call(BridgeMethod.withdraw.name, [.string(id)])
            _ = try await Self.ended(id, app: "Mail", in: fixture)

            #expect(try await Self.history(fixture).map(\.id) == [id], "the poster sees its own without a filter")
            let other = try await fixture.bus.connect()
            defer { Task { await other.close() } }
            #expect(try await Self.history(fixture, from: other).isEmpty, "another connection sees none of it")
            let named = try await Self.history(fixture, [FilterKeys.appName.name: .string("Mail")], from: other)
            #expect(named.map(\.id) == [id])
        }
    }

    @Test("typed text is never in the store's files, whether the user replied or answered later")
    func typedTextNeverStored() async throws {
        try await DaemonFixture.with { fixture in
            let answer = try ExecRouteTests.installRecorder(in: fixture)
            let replied = try await Self.postBill(fixture, textInput: true)
            let first = try await fixture.nextNotification()
            let onScreen = "reply-on-screen-\(UUID().uuidString)"
            try await fixture.scripted.reply(id: first.id, text: onScreen)
            let read = try await ExecRouteTests.waitForAnswer(answer)
            #expect(try read("text-input") == onScreen)
            try FileManager.default.removeItem(at: answer)
            // The daemon closes it after the answer where the server does not; a close button after the answer is
            // still an answered notification.
            try? await fixture.scripted.dismiss(id: first.id)
            let answeredEntry = try await Self.ended(replied, app: "Billing", in: fixture)
            #expect(answeredEntry.ending == .responded && answeredEntry.responseAction == "pay", "\(answeredEntry)")

            let later = try await Self.postBill(fixture, textInput: true)
            let second = try await fixture.nextNotification()
            #expect(try await fixture.scripted.expire(id: second.id))
            _ = try await Self.ended(later, app: "Billing", in: fixture)
            let missing = await outcome { try await Self.act(fixture, later, "pay") }
            #expect((missing.failure as? DBusFailure)?.name == BridgeError.invalidArgument.rawValue, "\(missing)")
            let typedLater = "typed-later-\(UUID().uuidString)"
            try await Self.act(fixture, later, "pay", text: typedLater)
            #expect(try await ExecRouteTests.waitForAnswer(answer)("text-input") == typedLater)
            _ = try await Self.history(fixture)

            let state = fixture.directory.appendingPathComponent("state")
            var readBytes = 0
            for name in ["state.db", "state.db-wal"] {
                guard let bytes = FileManager.default.contents(atPath: state.appendingPathComponent(name).path)
                else { continue }
                readBytes += bytes.count
                for secret in [onScreen, typedLater] {
                    #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(name) holds typed text")
                }
                #expect(bytes.range(of: Data("2024-17".utf8)) != nil || name == "state.db", "user info is kept")
            }
            #expect(readBytes > 0, "the store's files were read")
        }
    }

    @Test("Present shows an expired notification again with live actions, its responses going to its command")
    func presentAgain() async throws {
        try await DaemonFixture.with { fixture in
            let answer = try ExecRouteTests.installRecorder(in: fixture)
            let id = try await Self.postBill(fixture)
            let shown = try await fixture.nextNotification()
            #expect(try await fixture.scripted.expire(id: shown.id))
            _ = try await Self.ended(id, app: "Billing", in: fixture)

            try await fixture.call(BridgeMethod.present.name, [.string(id)])
            let again = try await fixture.nextNotification()
            #expect(again.actions.map(\.key).contains("pay"))
            try await fixture.scripted.invokeAction(id: again.id, key: "pay")
            let read = try await ExecRouteTests.waitForAnswer(answer)
            #expect(try read("action") == "pay")
            #expect(try read("id") == id)
        }
    }
}
