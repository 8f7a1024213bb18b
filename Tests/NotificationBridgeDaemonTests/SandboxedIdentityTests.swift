import DBusCore
import DBusTestSupport
import NotificationBridgeAPI
import Testing

extension SandboxedPeerTests {
    /// Another Flatpak whose app id starts with the sandboxed app's own and a dot.
    static let lookalike = "org.example.Evil.Bank"

    @Test(
        "it acts only under its exact app id: a desktop entry or settings app that merely starts with it is another's")
    func anAppIDThatStartsWithItsOwnIsAnothers() async throws {
        try await Self.with { fixture, sandbox, _ in
            let app = try await sandbox.connect()
            defer { Task { await app.close() } }
            for notification: [String: DBusValue] in [
                [PostKeys.title.name: .string("Hi"), PostKeys.desktopEntry.name: .string(Self.lookalike)],
                [PostKeys.title.name: .string("Hi"), PostKeys.desktopEntry.name: .string(Self.lookalike + ".desktop")],
                [
                    PostKeys.title.name: .string("Hi"), PostKeys.desktopEntry.name: .string(Self.lookalike),
                    PostKeys.appAction.name: .boolean(true),
                ],
            ] {
                let failure = await Self.failure(fixture, app, BridgeMethod.post.name, [.vardict(notification)])
                #expect(
                    failure?.name == BridgeError.accessDenied.rawValue,
                    "\(notification): \(String(describing: failure))")
                #expect(failure?.message.contains("'\(Self.evil)'") == true, "it names what it may give instead")
            }
            let read = await Self.failure(fixture, app, BridgeMethod.getSettings.name, [.string(Self.lookalike)])
            #expect(read?.name == BridgeError.accessDenied.rawValue, "\(String(describing: read))")
            let requested = await Self.failure(
                fixture, app, BridgeMethod.setSettings.name,
                [.string(Self.lookalike), .vardict([SettingsKeys.requested.name: .strings(["alert"])])])
            #expect(requested?.name == BridgeError.accessDenied.rawValue, "\(String(describing: requested))")
            // Its own desktop entry it may give.
            let own = await Self.failure(
                fixture, app, BridgeMethod.post.name,
                [.vardict([PostKeys.title.name: .string("Hi"), PostKeys.desktopEntry.name: .string(Self.evil)])])
            #expect(own == nil, "\(String(describing: own))")
        }
    }
}
