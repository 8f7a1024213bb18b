import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridge
import NotificationBridgeAPI
import NotificationBridgeDaemon
import NotificationModel
import NotificationServerKit
import Testing

/// A Flatpak app allowed to talk to the daemon (`--talk-name=io.github.NotificationBridge`), in a real sandbox: `bwrap`
/// with a `/.flatpak-info` naming `org.example.Evil`, its bus filtered by `xdg-dbus-proxy` run in the same sandbox, as
/// Flatpak runs them. It schedules and receives its own notifications, and can do nothing to the host or to another
/// app (`org.example.Bank`, posted by a host process).
@Suite(
    "Sandboxed apps act only as themselves",
    .enabled(if: FlatpakSandbox.unavailableReason == nil, "\(FlatpakSandbox.unavailableReason ?? "")"))
struct SandboxedPeerTests {
    static let evil = "org.example.Evil"
    static let bank = "org.example.Bank"

    /// The daemon, a host app's showing notification (the bank's, with a typed-reply action), and the sandbox.
    static func with(
        _ body: (DaemonFixture, FlatpakSandbox, _ bankID: String) async throws -> Void
    ) async throws {
        try await DaemonFixture.with { fixture in
            let bankID = try await fixture.post([
                PostKeys.title.name: .string("Your code"), PostKeys.appName.name: .string(bank),
                PostKeys.actions.name: ActionList.textInput(id: "reply"),
            ])
            _ = try await fixture.nextNotification()
            let sandbox = try await FlatpakSandbox.start(appID: evil, on: fixture.bus, talk: [BridgeAPI.busName])
            defer { sandbox.stop() }
            try await body(fixture, sandbox, bankID)
        }
    }

    /// Calls the daemon from inside the sandbox with `gdbus`, as a Flatpak app's script would.
    static func gdbus(_ sandbox: FlatpakSandbox, _ method: String, _ arguments: String...) async throws -> ProcessResult
    {
        try await sandbox.run(
            [
                "gdbus", "call", "--session", "--dest", BridgeAPI.busName, "--object-path",
                BridgeAPI.objectPath.rawValue,
                "--method", "\(BridgeAPI.interfaceName).\(method)",
            ] + arguments)
    }

    /// The D-Bus error of a call the sandbox's connection makes, `nil` when it succeeds.
    static func failure(
        _ fixture: DaemonFixture, _ connection: DBusConnection, _ method: String, _ arguments: [DBusValue]
    ) async -> DBusFailure? {
        do {
            try await fixture.call(method, arguments, from: connection)
            return nil
        } catch {
            return error as? DBusFailure ?? DBusFailure(name: "other", message: "\(error)")
        }
    }

    @Test("its own scheduling works from inside the sandbox, under its own app id")
    func ownSchedulingWorks() async throws {
        try await Self.with { fixture, sandbox, _ in
            let posted = try await Self.gdbus(
                sandbox, BridgeMethod.post.name, "{'title': <'Tea is ready'>, 'in': <600.0>}")
            #expect(posted.status == 0, "\(posted.output)")
            let id = try postedID(posted.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
            let listed = try await Self.gdbus(sandbox, BridgeMethod.listPending.name, "{'app-name': <'\(Self.evil)'>}")
            #expect(listed.status == 0, "\(listed.output)")
            #expect(listed.standardOutput.contains(id))
            #expect(listed.standardOutput.contains("'app-name': <'\(Self.evil)'>"))
            let withdrawn = try await Self.gdbus(sandbox, BridgeMethod.withdraw.name, "'\(id)'")
            #expect(withdrawn.status == 0, "\(withdrawn.output)")
        }
    }

    @Test(
        "it cannot make the host run a command: exec is refused, on a click or a reported dismissal alike",
        arguments: [false, true])
    func execIsRefused(reportsDismissal: Bool) async throws {
        try await Self.with { fixture, sandbox, _ in
            let marker = fixture.directory.appendingPathComponent("ran")
            var notification = "{'title': <'Click me'>, 'exec': <['/usr/bin/touch', '\(marker.path)']>"
            if reportsDismissal {
                let registered = try await Self.gdbus(
                    sandbox, BridgeMethod.registerCategory.name, "'trap'", "[{'id': <'ok'>, 'title': <'OK'>}]",
                    "{'reports-dismissal': <true>}")
                #expect(registered.status == 0, "\(registered.output)")
                notification += ", 'category': <'trap'>"
            } else {
                notification += ", 'actions': <[{'id': <'ok'>, 'title': <'OK'>}]>"
            }
            let posted = try await Self.gdbus(sandbox, BridgeMethod.post.name, notification + "}")
            #expect(posted.status != 0)
            #expect(posted.standardError.contains("\(BridgeError.accessDenied.rawValue)"), "\(posted.output)")
            #expect(posted.standardError.contains("cannot have the host run a command"))
            #expect(!FileManager.default.fileExists(atPath: marker.path))
        }
    }

    @Test("it cannot post as another app, nor under another app's desktop entry or app-action")
    func claimingAnotherAppIsRefused() async throws {
        try await Self.with { fixture, sandbox, _ in
            let app = try await sandbox.connect()
            defer { Task { await app.close() } }
            for notification: [String: DBusValue] in [
                [PostKeys.title.name: .string("Hi"), PostKeys.appName.name: .string(Self.bank)],
                [PostKeys.title.name: .string("Hi"), PostKeys.desktopEntry.name: .string(Self.bank)],
                [
                    PostKeys.title.name: .string("Hi"), PostKeys.desktopEntry.name: .string(Self.bank),
                    PostKeys.appAction.name: .boolean(true),
                ],
            ] {
                let failure = await Self.failure(fixture, app, BridgeMethod.post.name, [.vardict(notification)])
                #expect(
                    failure?.name == BridgeError.accessDenied.rawValue,
                    "\(notification): \(String(describing: failure))")
            }
        }
    }

    @Test("it cannot replace, withdraw or wait on another app's notification; the bank's stays as it was")
    func anotherAppsNotificationIsOutOfReach() async throws {
        try await Self.with { fixture, sandbox, bankID in
            let app = try await sandbox.connect()
            defer { Task { await app.close() } }
            let replaced = await Self.failure(
                fixture, app, BridgeMethod.post.name,
                [
                    .vardict([
                        PostKeys.title.name: .string("Your code"), PostKeys.replaces.name: .string(bankID),
                        PostKeys.actions.name: ActionList.plain(id: "reply"),
                    ])
                ])
            #expect(replaced?.name == BridgeError.accessDenied.rawValue, "\(String(describing: replaced))")
            for method in [BridgeMethod.withdraw.name, BridgeMethod.waitForResponse.name] {
                let failure = await Self.failure(fixture, app, method, [.string(bankID)])
                #expect(failure?.name == BridgeError.accessDenied.rawValue, "\(method): \(String(describing: failure))")
            }
            // Still showing, unreplaced: the host's listing has it with its own title.
            let listed = try await fixture.call(
                BridgeMethod.listDelivered.name, [.vardict([FilterKeys.appName.name: .string(Self.bank)])])
            #expect("\(listed)".contains(bankID))
        }
    }

    @Test("it cannot list, withdraw all, or take over (Attach) another app's notifications")
    func anotherAppsListingsAreOutOfReach() async throws {
        try await Self.with { fixture, sandbox, bankID in
            let scheduled = try await fixture.post([
                PostKeys.title.name: .string("Statement"), PostKeys.appName.name: .string(Self.bank),
                PostKeys.delay.name: .double(600), PostKeys.userInfo.name: .string(#"{"iban": "DE00"}"#),
            ])
            let bankFilter = DBusValue.vardict([FilterKeys.appName.name: .string(Self.bank)])
            let listed = try await Self.gdbus(sandbox, BridgeMethod.listPending.name, "{'app-name': <'\(Self.bank)'>}")
            #expect(listed.status != 0)
            #expect(listed.standardError.contains(BridgeError.accessDenied.rawValue), "\(listed.output)")
            #expect(!listed.standardOutput.contains("DE00"))

            let app = try await sandbox.connect()
            defer { Task { await app.close() } }
            for method in [BridgeMethod.listDelivered.name, BridgeMethod.withdrawAll.name] {
                let failure = await Self.failure(fixture, app, method, [bankFilter])
                #expect(failure?.name == BridgeError.accessDenied.rawValue, "\(method): \(String(describing: failure))")
            }
            let attached = await Self.failure(
                fixture, app, BridgeMethod.attach.name,
                [
                    .string(Self.bank), .vardict([AttachOptionKeys.foreground.name: .boolean(true)]),
                ])
            #expect(attached?.name == BridgeError.accessDenied.rawValue, "\(String(describing: attached))")
            // Its own name it may take.
            #expect(
                await Self.failure(fixture, app, BridgeMethod.attach.name, [.string(Self.evil), .vardict([:])]) == nil)
            let pending = try await fixture.call(BridgeMethod.listPending.name, [bankFilter])
            #expect("\(pending)".contains(scheduled), "the bank's scheduled notification is still there")
            #expect("\(try await fixture.call(BridgeMethod.listDelivered.name, [bankFilter]))".contains(bankID))
        }
    }

    @Test("it cannot change another app's settings nor the user's choices for itself; it may say what it requests")
    func settingsAreTheUsers() async throws {
        try await Self.with { fixture, sandbox, _ in
            let app = try await sandbox.connect()
            defer { Task { await app.close() } }
            let off = DBusValue.vardict([SettingsKeys.allowed.name: .boolean(false)])
            for (name, settings) in [
                (Self.bank, off), (Self.evil, off),
                (
                    "",
                    DBusValue.vardict([
                        SettingsKeys.doNotDisturb.name: .boolean(true)
                    ])
                ),
            ] {
                let failure = await Self.failure(
                    fixture, app, BridgeMethod.setSettings.name, [.string(name), settings])
                #expect(failure?.name == BridgeError.accessDenied.rawValue, "\(name): \(String(describing: failure))")
            }
            let read = await Self.failure(fixture, app, BridgeMethod.getSettings.name, [.string(Self.bank)])
            #expect(read?.name == BridgeError.accessDenied.rawValue)
            let requested = await Self.failure(
                fixture, app, BridgeMethod.setSettings.name,
                [
                    .string(Self.evil), .vardict([SettingsKeys.requested.name: .strings(["alert"])]),
                ])
            #expect(requested == nil, "\(String(describing: requested))")
            let bankSettings = try await fixture.call(BridgeMethod.getSettings.name, [.string(Self.bank)])
            #expect(bankSettings.first?.stringKeyedEntries?[SettingsKeys.allowed.name] == .variant(.boolean(true)))
            let listed = try await fixture.call(BridgeMethod.listSettings.name, [], from: app)
            #expect(!"\(listed)".contains(Self.bank), "a sandboxed app lists its own settings only")
        }
    }

    @Test("its categories are its own: the host's category of the same id is untouched, and it sees only its own")
    func categoriesAreApart() async throws {
        try await Self.with { fixture, sandbox, _ in
            try await fixture.call(
                BridgeMethod.registerCategory.name,
                [
                    .string("message"), ActionList.plain(id: "open"), .vardict([:]),
                ])
            let registered = try await Self.gdbus(
                sandbox, BridgeMethod.registerCategory.name, "'message'", "[{'id': <'steal'>, 'title': <'Steal'>}]",
                "{}")
            #expect(registered.status == 0, "\(registered.output)")
            let hostView = "\(try await fixture.call(BridgeMethod.listCategories.name))"
            #expect(hostView.contains("open") && hostView.contains("\(Self.evil):message"))
            let appView = try await Self.gdbus(sandbox, BridgeMethod.listCategories.name)
            #expect(appView.standardOutput.contains("steal") && !appView.standardOutput.contains("open"))
            #expect(!appView.standardOutput.contains(Self.evil + ":"), "it knows its category as 'message'")

            // Its notifications show its own category's actions.
            let posted = try await Self.gdbus(
                sandbox, BridgeMethod.post.name, "{'title': <'Hi'>, 'category': <'message'>}")
            #expect(posted.status == 0, "\(posted.output)")
            #expect(try await fixture.nextNotification().actions.map(\.key).contains("steal"))
            let removed = try await Self.gdbus(sandbox, BridgeMethod.removeCategory.name, "'message'")
            #expect(removed.status == 0, "\(removed.output)")
            #expect("\(try await fixture.call(BridgeMethod.listCategories.name))".contains("open"), "the host's stays")
        }
    }

    @Test(
        "the library's LocalNotificationClient in a Flatpak acts as its app id: it posts, lists and gets its response")
    func localNotificationClientInAFlatpak() async throws {
        try await Self.with { fixture, sandbox, _ in
            let client = try await LocalNotificationClient(
                connection: try await sandbox.connect(), appName: "Evil", foreground: false, sandbox: .flatpak,
                environment: ["FLATPAK_ID": Self.evil])
            try await client.running {
                #expect(client.appName == Self.evil)
                var content = NotificationContent(title: "Tea", body: "Ready")
                content.actions = [NotificationAction(id: "pour", title: "Pour", activation: .background)]
                let id = try await client.post(content)
                let shown = try await fixture.nextNotification()
                #expect(shown.desktopEntry == Self.evil)
                #expect(try await client.delivered().map(\.id) == [id])
                try await fixture.scripted.invokeAction(id: shown.id, key: "pour")
                let response = try await client.responses.first(waitingFor: "the response in the sandbox")
                #expect(response.notificationID == id && response.actionID == "pour")
            }
        }
    }

    @Test("a sandbox whose /.flatpak-info names no app may not post at all")
    func unidentifiedSandboxIsRefused() async throws {
        try await DaemonFixture.with { fixture in
            let sandbox = try await FlatpakSandbox.start(
                appID: "unnamed", on: fixture.bus, talk: [BridgeAPI.busName], flatpakInfo: "[Instance]\nbranch=x\n")
            defer { sandbox.stop() }
            let posted = try await Self.gdbus(sandbox, BridgeMethod.post.name, "{'title': <'Hi'>}")
            #expect(posted.status != 0)
            #expect(posted.standardError.contains(BridgeError.accessDenied.rawValue), "\(posted.output)")
        }
    }
}
