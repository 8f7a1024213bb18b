import DBusCore
import DBusTestSupport
import Testing

@testable import NotificationBridge

@Suite struct BadgeEmitterTests {
    @Test func setBadgeEmitsAUnityLauncherEntryUpdate() async throws {
        try await withPrivateBus { bus in
            let dock = try await bus.connect()
            let updates = try await dock.signals(
                matching: DBusMatchRule(
                    interface: "com.canonical.Unity.LauncherEntry", member: "Update"))
            let sender = try await bus.connect()
            let badges = BadgeEmitter(connection: sender)

            try badges.setBadge(7, desktopEntry: "org.example.Mail")
            let shown = try await updates.first(waitingFor: "the Update with a count")
            #expect(shown.sender == sender.uniqueName)
            #expect(shown.path == BadgeEmitter.defaultPath)
            #expect(
                shown.arguments == [
                    .string("application://org.example.Mail.desktop"),
                    .dictionary(
                        key: "s", value: "v",
                        [
                            DBusDictionaryEntry(key: .string("count"), value: .variant(.int64(7))),
                            DBusDictionaryEntry(key: .string("count-visible"), value: .variant(.boolean(true))),
                        ]),
                ])

            try badges.setBadge(nil, desktopEntry: "org.example.Mail")
            let hidden = try await updates.first(waitingFor: "the Update that hides the badge")
            #expect(
                hidden.arguments == [
                    .string("application://org.example.Mail.desktop"),
                    .vardict(["count": .int64(0), "count-visible": .boolean(false)]),
                ])
        }
    }

    @Test(arguments: [0, -3])
    func zeroOrNegativeHidesTheBadge(count: Int) {
        let hidden = DBusValue.vardict(["count": .int64(0), "count-visible": .boolean(false)])
        #expect(BadgeEmitter.properties(count: count) == hidden)
    }

    @Test func anInvalidDesktopEntryIsRefused() async throws {
        try await withPrivateBus { bus in
            let badges = BadgeEmitter(connection: try await bus.connect())
            #expect(throws: DesktopIntegrationError.invalidDesktopEntry("a/b")) {
                try badges.setBadge(1, desktopEntry: "a/b")
            }
        }
    }
}
