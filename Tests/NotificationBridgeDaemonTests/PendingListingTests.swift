import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridge
import NotificationBridgeAPI
import NotificationStore
import Testing

/// `ListPending` copies each notification's keys from the wire form the daemon keeps with it: what it lists, before
/// and after a restart, is what it would list by building every value, which is what it falls back to when the kept
/// form is damaged.
@Suite("ListPending from the kept wire form")
struct PendingListingTests {
    /// A notification using most keys Post takes: actions with typed text, a command route, hints, user info, a
    /// calendar repeat.
    static let post =
        "{'title': <'Stand-up'>, 'body': <'Grüße <b>team</b> ✓'>, 'app-name': <'Agenda'>, "
        + "'actions': <[{'id': <'join'>, 'title': <'Join'>, 'activation': <'background'>}, "
        + "{'id': <'note'>, 'title': <'Note'>, 'behavior': <'text-input'>, 'text-input-button-title': <'Send'>, "
        + "'text-input-placeholder': <'Why'>}]>, "
        + "'exec': <['/bin/true', 'from-test']>, 'hints': <{'x-example-room': <'4.2'>}>, "
        + "'user-info': <'{\"room\":42}'>, 'urgency': <'critical'>, 'thread': <'daily'>, "
        + "'calendar': <{'hour': <9>, 'minute': <30>}>, 'repeat': <true>}"

    /// The daemon's listing for Agenda, each notification as its keys and unwrapped values.
    static func listing(_ setup: SchedulingTests.Setup) async throws -> [[String: DBusValue]] {
        let reply = try await setup.client.call(
            destination: BridgeAPI.busName, path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName,
            method: BridgeMethod.listPending.name, arguments: [.vardict([FilterKeys.appName.name: .string("Agenda")])],
            timeout: .seconds(20))
        guard case .array(_, let items)? = reply.first else { throw TestSupportError("not a list: \(reply)") }
        return try items.map { item in
            guard let entries = item.stringKeyedEntries else { throw TestSupportError("not an a{sv}: \(item)") }
            return entries.mapValues(\.unwrappedVariant)
        }
    }

    static func restart(_ daemon: ChildProcess, _ setup: SchedulingTests.Setup) async throws -> ChildProcess {
        daemon.signal(SIGTERM)
        _ = await daemon.wait(within: .seconds(10))
        return try await setup.startDaemon()
    }

    @Test("a notification is listed with the same keys as posted, before and after a restart")
    func sameKeysAcrossARestart() async throws {
        try await SchedulingTests.withSetup { setup in
            var daemon = try await setup.startDaemon()
            defer { daemon.stop() }
            let id = try postedID(try await setup.gdbus(BridgeMethod.post.name, Self.post))
            let before = try await Self.listing(setup)
            #expect(before.count == 1)
            let listed = try #require(before.first)
            #expect(listed[ListedKeys.id.name] == .string(id))
            #expect(listed[PostKeys.title.name] == .string("Stand-up"))
            #expect(listed[PostKeys.body.name] == .string("Grüße <b>team</b> ✓"))
            #expect(listed[PostKeys.exec.name] == .strings(["/bin/true", "from-test"]))
            #expect(listed[PostKeys.repeat.name] == .boolean(true))
            #expect(listed[PostKeys.thread.name] == .string("daily"))
            #expect(listed[PostKeys.actions.name].map { "\($0)" }?.contains("Why") == true, "\(listed)")
            guard case .int64(let next)? = listed[ListedKeys.nextFireDate.name] else {
                throw TestSupportError("no next-fire-date in \(listed)")
            }
            #expect(Double(next) > Date().timeIntervalSince1970, "next fire date \(next)")

            daemon = try await Self.restart(daemon, setup)
            #expect(try await Self.listing(setup) == before)
        }
    }

    @Test("a filter by thread or category lists the pending notifications of that thread or category alone")
    func filteredByThreadAndCategory() async throws {
        try await SchedulingTests.withSetup { setup in
            let daemon = try await setup.startDaemon()
            defer { daemon.stop() }
            _ = try await setup.gdbus(
                BridgeMethod.registerCategory.name, "'org.example.reminder'", "[{'id': <'done'>, 'title': <'Done'>}]",
                "{}")
            let posts: [(title: String, extra: String)] = [
                ("Daily one", "'thread': <'daily'>"),
                ("Weekly", "'thread': <'weekly'>, 'category': <'org.example.reminder'>"),
                ("Daily two", "'thread': <'daily'>, 'category': <'org.example.reminder'>"),
                ("Plain", "'urgency': <'low'>"),
            ]
            for (title, extra) in posts {
                _ = try postedID(
                    try await setup.gdbus(
                        BridgeMethod.post.name,
                        "{'title': <'\(title)'>, 'app-name': <'Agenda'>, 'in': <3600.0>, \(extra)}"))
            }
            func titles(_ filter: [String: DBusValue]) async throws -> Set<String> {
                let reply = try await setup.client.call(
                    destination: BridgeAPI.busName, path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName,
                    method: BridgeMethod.listPending.name,
                    arguments: [.vardict(filter.merging([FilterKeys.appName.name: .string("Agenda")]) { $1 })])
                guard case .array(_, let items)? = reply.first else { throw TestSupportError("not a list: \(reply)") }
                return Set(
                    items.compactMap { $0.stringKeyedEntries?[PostKeys.title.name]?.unwrappedVariant.stringValue })
            }
            #expect(try await titles([:]) == ["Daily one", "Weekly", "Daily two", "Plain"])
            #expect(try await titles([FilterKeys.thread.name: .string("daily")]) == ["Daily one", "Daily two"])
            #expect(
                try await titles([FilterKeys.category.name: .string("org.example.reminder")]) == [
                    "Weekly", "Daily two",
                ])
            #expect(
                try await titles([
                    FilterKeys.thread.name: .string("daily"), FilterKeys.category.name: .string("org.example.reminder"),
                ]) == ["Daily two"])
            #expect(try await titles([FilterKeys.thread.name: .string("monthly")]).isEmpty)
        }
    }

    @Test("a damaged kept form is listed as built from the content, the same keys, and the daemon says so")
    func damagedKeptFormFallsBack() async throws {
        try await SchedulingTests.withSetup { setup in
            var daemon = try await setup.startDaemon()
            defer { daemon.stop() }
            _ = try postedID(try await setup.gdbus(BridgeMethod.post.name, Self.post))
            let before = try await Self.listing(setup)
            daemon.signal(SIGTERM)
            _ = await daemon.wait(within: .seconds(10))

            // The title is in the row twice: in the content, then in the kept wire form, which comes last. Making
            // one of its bytes invalid UTF-8 leaves the message's frame whole: only libdbus's check finds it.
            let database = try SQLiteConnection(path: setup.stateDirectory.appendingPathComponent("state.db").path)
            defer { database.close() }
            let rows = try database.prepare("SELECT id, body FROM pending")
            #expect(try rows.step())
            let id = try #require(rows.text(at: 0))
            var body = rows.blob(at: 1)
            let title = Array("Stand-up".utf8)
            let last = try #require(
                (0...(body.count - title.count)).last { Array(body[$0..<($0 + title.count)]) == title })
            body[last] = 0xFF
            let update = try database.prepare("UPDATE pending SET body = ?1 WHERE id = ?2")
            try update.bind(body, at: 1)
            try update.bind(id, at: 2)
            try update.run()

            daemon = try await setup.startDaemon()
            #expect(try await Self.listing(setup) == before)
            let log = setup.logText
            #expect(log.contains("built again from the content"), "\(log)")
        }
    }
}
