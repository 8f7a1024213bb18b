import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridge
import NotificationBridgeAPI
import NotificationBridgeDaemon
import NotificationServerKit
import NotificationStore
import Testing

/// Scheduling through `gdbus call` against the `notification-bridged` process: notifications posted with `in` or
/// `fire-date` reach the notification server when due, are listed and withdrawn while pending, and survive a
/// `kill -9` of the daemon along with the categories.
@Suite("Scheduled notifications in the notification-bridged process")
struct SchedulingTests {
    /// A private bus with a scripted notification server, and a state folder for the daemon (its `XDG_STATE_HOME`).
    struct Setup: Sendable {
        let bus: PrivateBus
        let client: DBusConnection
        /// The scripted notification server.
        let server: NotificationServer
        /// The server's connection: closing it is the server's process exiting (its ``NotificationServer/run()`` ends).
        let serverConnection: DBusConnection
        let events: AsyncStream<NotificationServerEvent>
        let stateHome: URL
        let log: URL

        /// The daemon's folder under `XDG_STATE_HOME`.
        var stateDirectory: URL { stateHome.appendingPathComponent("notification-bridge") }

        var environment: [String: String] {
            var environment = bus.environment
            environment["XDG_STATE_HOME"] = stateHome.path
            return environment
        }

        /// Starts the built daemon; returns once it owns its name. Its standard error is appended to ``log``.
        func startDaemon() async throws -> ChildProcess {
            let executable = try await PackageFiles.daemonExecutable()
            let owners = try await client.nameOwnerChanges(of: BridgeAPI.busName)
            let output = open(log.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
            defer { close(output) }
            let child = try ChildProcess.spawn(
                [executable.path], environment: environment, standardOutput: output, standardError: output)
            do {
                try await withTimeout(waitingFor: "notification-bridged to own its name") {
                    for await owner in owners where owner != nil { return }
                }
            } catch {
                child.stop()
                throw TestSupportError("\(error); its log: \(logText)")
            }
            return child
        }

        var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

        /// The daemon's state database as text, one line per row: `"<id>": <the row's JSON>`. Read through a
        /// connection of its own, beside the daemon's.
        /// The server id the daemon's state keeps for the shown notification `id`; `nil` while it keeps none.
        func storedServerID(of id: String) -> UInt32? {
            struct Stored: Decodable { var serverID: UInt32 }
            let path = stateDirectory.appendingPathComponent("state.db").path
            guard FileManager.default.fileExists(atPath: path), let database = try? SQLiteConnection(path: path),
                let rows = try? database.prepare("SELECT id, body FROM delivered")
            else { return nil }
            while (try? rows.step()) == true {
                guard rows.text(at: 0) == id else { continue }
                let body = rows.blob(at: 1)
                let stored =
                    RowDecoder.isBinaryRow(body)
                    ? try? RowDecoder().decode(Stored.self, from: body)
                    : try? JSONDecoder().decode(Stored.self, from: Data(body))
                return stored?.serverID
            }
            return nil
        }

        /// Runs `gdbus call` on a method of the daemon; fails unless it succeeds.
        @discardableResult
        func gdbus(_ method: String, _ arguments: String...) async throws -> String {
            let result = try await ProcessRunner.run(
                [
                    "gdbus", "call", "--session", "--dest", BridgeAPI.busName, "--object-path",
                    BridgeAPI.objectPath.rawValue, "--method", "\(BridgeAPI.interfaceName).\(method)",
                ] + arguments, environment: environment, timeout: .seconds(20))
            guard result.status == 0 else {
                throw TestSupportError("gdbus \(method) failed: \(result.standardError); daemon log: \(logText)")
            }
            return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        /// Posts a notification of `appName` whose default action is `label` from a connection that closes once it is
        /// shown, then clicks it: the response of a poster that is gone goes to the app. Returns the notification's id.
        func postFromGoneConnectionAndClick(title: String, appName: String, label: String) async throws -> String {
            let poster = try await bus.connect()
            let id = try await BridgeProxy(connection: poster).post(
                NotificationPost(
                    content: NotificationContent(
                        title: title, appName: appName, defaultActionLabel: label, timeout: .never)))
            let shown = try await nextNotification()
            await poster.close()
            try await server.invokeAction(id: shown.id, key: "default")
            return id
        }

        /// The next notification the server receives.
        func nextNotification(within limit: Duration = .seconds(15)) async throws -> ServedNotification {
            let events = self.events
            return try await withTimeout(limit, waitingFor: "the notification server to receive a notification") {
                for await event in events {
                    if case .notified(let notification) = event { return notification }
                }
                throw TestSupportError("the server stopped")
            }
        }
    }

    static func withSetup<T: Sendable>(
        _ profile: NotificationServerProfile = .fullFeatured, _ body: (Setup) async throws -> T
    ) async throws -> T {
        try await withPrivateBus { bus in
            let serverConnection = try await bus.connect()
            let server = NotificationServer()
            let events = server.events()
            // The server keeps what it would let expire by itself: on a loaded machine more than its default timeout
            // may pass between a post and the test's click. Expiry is tested where it is the point.
            try await server.start(on: serverConnection, profile: profile.withoutDefaultExpiry)
            async let serverRunning: Void = server.run()
            let client = try await bus.connect()
            let stateHome = bus.directory.appendingPathComponent("state-home")
            let log = FileManager.default.temporaryDirectory.appendingPathComponent("nb-sched-\(UUID().uuidString).log")
            defer { try? FileManager.default.removeItem(at: log) }
            let setup = Setup(
                bus: bus, client: client, server: server, serverConnection: serverConnection, events: events,
                stateHome: stateHome, log: log)
            let result = await outcome { try await body(setup) }
            await serverConnection.close()
            await serverRunning
            await client.close()
            await serverConnection.close()
            return try result.get()
        }
    }

    @Test("a notification posted with 'in' is pending, then reaches the server when due")
    func firesWhenDue() async throws {
        try await Self.withSetup { setup in
            let daemon = try await setup.startDaemon()
            defer { daemon.stop() }
            let posted = Date()
            let id = try postedID(
                try await setup.gdbus(BridgeMethod.post.name, "{'title': <'Tea'>, 'app-name': <'Kettle'>, 'in': <3.0>}")
            )

            let pending = try await setup.gdbus(BridgeMethod.listPending.name, "{'app-name': <'Kettle'>}")
            #expect(pending.contains("'id': <'\(id)'>"), "\(pending)")
            #expect(pending.contains("'title': <'Tea'>"), "\(pending)")
            #expect(pending.contains("'next-fire-date': <int64 "), "\(pending)")

            let shown = try await setup.nextNotification()
            #expect(shown.summary == "Tea")
            #expect(shown.appName == "Kettle")
            #expect(Date().timeIntervalSince(posted) >= 2.9, "shown before it was due")

            #expect(try await setup.gdbus(BridgeMethod.listPending.name, "{'app-name': <'Kettle'>}") == "(@aa{sv} [],)")
            // Shown through the same path as an immediate Post: listed as delivered once the server has answered.
            try await withTimeout(waitingFor: "ListDelivered to list the fired notification") {
                while try await !setup.gdbus(BridgeMethod.listDelivered.name, "{'app-name': <'Kettle'>}").contains(
                    "'id': <'\(id)'>")
                {
                    try await Task.sleep(for: .milliseconds(50))
                }
            }
        }
    }

    @Test("Withdraw cancels a pending notification: it never reaches the server")
    func withdrawCancels() async throws {
        try await Self.withSetup { setup in
            let daemon = try await setup.startDaemon()
            defer { daemon.stop() }
            let cancelled = try postedID(
                try await setup.gdbus(
                    BridgeMethod.post.name, "{'title': <'Cancelled'>, 'app-name': <'Timer'>, 'in': <4.0>}"))
            // Fires after the cancelled one was due: the first notification the server gets must be this one. (The
            // seconds leave a loaded machine room to withdraw the first before it is due.)
            _ = try postedID(
                try await setup.gdbus(BridgeMethod.post.name, "{'title': <'Kept'>, 'app-name': <'Timer'>, 'in': <5.0>}")
            )
            #expect(try await setup.gdbus(BridgeMethod.withdraw.name, "'\(cancelled)'") == "()")

            let pending = try await setup.gdbus(BridgeMethod.listPending.name, "{'app-name': <'Timer'>}")
            #expect(!pending.contains(cancelled), "\(pending)")
            #expect(pending.contains("'title': <'Kept'>"), "\(pending)")

            let shown = try await setup.nextNotification()
            #expect(shown.summary == "Kept")
            // Withdrawing it again is no error: it is gone, as asked.
            #expect(try await setup.gdbus(BridgeMethod.withdraw.name, "'\(cancelled)'") == "()")
        }
    }

    @Test("WithdrawAll with an app name cancels that app's pending notifications")
    func withdrawAllCancels() async throws {
        try await Self.withSetup { setup in
            let daemon = try await setup.startDaemon()
            defer { daemon.stop() }
            let inAnHour = Int(Date().timeIntervalSince1970) + 3600
            let id = try postedID(
                try await setup.gdbus(
                    BridgeMethod.post.name,
                    "{'title': <'Later'>, 'app-name': <'Agenda'>, 'fire-date': <int64 \(inAnHour)>, "
                        + "'repeat': <'day'>}"))
            let withdrawn = try await setup.gdbus(BridgeMethod.withdrawAll.name, "{'app-name': <'Agenda'>}")
            #expect(withdrawn == "(['\(id)'],)")
            #expect(try await setup.gdbus(BridgeMethod.listPending.name, "{'app-name': <'Agenda'>}") == "(@aa{sv} [],)")
        }
    }

    @Test("after kill -9 and a restart, categories are still registered and a pending notification still fires")
    func survivesCrash() async throws {
        try await Self.withSetup { setup in
            let first = try await setup.startDaemon()
            try await setup.gdbus(
                BridgeMethod.registerCategory.name, "'org.example.reminder'", "[{'id': <'done'>, 'title': <'Done'>}]",
                "{}")
            let id = try postedID(
                try await setup.gdbus(
                    BridgeMethod.post.name,
                    "{'title': <'Stretch'>, 'app-name': <'Coach'>, 'category': <'org.example.reminder'>, 'in': <3.0>}"))
            let pending = try await setup.gdbus(BridgeMethod.listPending.name, "{'app-name': <'Coach'>}")
            #expect(pending.contains("'id': <'\(id)'>"), "\(pending)")

            first.signal(SIGKILL)
            let status = await first.wait(within: .seconds(10))
            #expect(status == 128 + SIGKILL)

            let second = try await setup.startDaemon()
            defer { second.stop() }
            let categories = try await setup.gdbus(BridgeMethod.listCategories.name)
            #expect(categories.contains("'id': <'org.example.reminder'>"), "\(categories)")

            let shown = try await setup.nextNotification()
            #expect(shown.summary == "Stretch")
            #expect(shown.actions.map(\.key).contains("done"), "\(shown.actions)")
            #expect(try await setup.gdbus(BridgeMethod.listPending.name, "{'app-name': <'Coach'>}") == "(@aa{sv} [],)")
        }
    }

    @Test("a corrupt state database is moved aside, said so in the log, and the daemon serves")
    func corruptState() async throws {
        try await Self.withSetup { setup in
            try FileManager.default.createDirectory(at: setup.stateDirectory, withIntermediateDirectories: true)
            try Data("{not a database".utf8).write(to: setup.stateDirectory.appendingPathComponent("state.db"))

            let daemon = try await setup.startDaemon()
            defer { daemon.stop() }
            let information = try await setup.gdbus(BridgeMethod.getServerInformation.name)
            #expect(information.contains("'server-name': <'NotificationServerKit'>"))

            let names = try FileManager.default.contentsOfDirectory(atPath: setup.stateDirectory.path)
            let movedAside = names.filter { $0.hasPrefix("state.db.corrupt-") }
            #expect(movedAside.count == 1, "\(names)")
            let log = setup.logText
            #expect(log.contains("could not be read"), "\(log)")
            #expect(log.contains(movedAside.first ?? "state.db.corrupt-"), "\(log)")

            // It keeps state afresh: a category registered now is there after a restart.
            try await setup.gdbus(
                BridgeMethod.registerCategory.name, "'org.example.fresh'", "[{'id': <'ok'>, 'title': <'OK'>}]", "{}")
            daemon.signal(SIGTERM)
            _ = await daemon.wait(within: .seconds(10))
            let again = try await setup.startDaemon()
            defer { again.stop() }
            #expect(try await setup.gdbus(BridgeMethod.listCategories.name).contains("'id': <'org.example.fresh'>"))
        }
    }

    @Test("a wall-clock fire date that has passed fires at once; with a repeat it stays pending for the next one")
    func pastWallClockRepeats() async throws {
        try await DaemonFixture.with { fixture in
            let id = try await fixture.post([
                PostKeys.title.name: .string("Anniversary"), PostKeys.fireDate.name: .string("2020-06-01T09:00:00"),
                PostKeys.timeZone.name: .string("local"), PostKeys.repeat.name: .string("year"),
            ])
            let shown = try await fixture.nextNotification()
            #expect(shown.summary == "Anniversary")
            let listed = try await fixture.call(BridgeMethod.listPending.name, [.vardict([:])])
            guard case .array(_, let items) = listed[0], let entries = items.first?.stringKeyedEntries else {
                throw TestSupportError("not a list of one: \(listed)")
            }
            #expect(entries[ListedKeys.id.name] == .variant(.string(id)))
            guard case .variant(.int64(let next))? = entries[ListedKeys.nextFireDate.name] else {
                throw TestSupportError("no next-fire-date in \(entries)")
            }
            let now = Date().timeIntervalSince1970
            #expect(Double(next) > now && Double(next) < now + 367 * 86_400, "next fire date \(next)")
        }
    }
}
