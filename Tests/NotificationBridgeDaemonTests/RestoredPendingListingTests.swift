import DBusCore
import DBusTestSupport
import NotificationBridge
import NotificationBridgeAPI
import NotificationServerKit
import Testing

@testable import NotificationBridgeDaemon

/// What a restarted daemon brings back and fires at once (a notification do-not-disturb held, kept as one that came
/// due) is listed by `ListPending` from the daemon's first answer on, also before the daemon has taken the firing in.
@Suite("ListPending after a restart")
struct RestoredPendingListingTests {
    /// The desktop's switch, on; reading it again (which a firing does first) waits until the test lets it go, so that
    /// a firing stops there, let go by the scheduler and not yet taken in by the daemon.
    final class StalledSwitch: DesktopDoNotDisturbWatching {
        private let fed = DesktopDoNotDisturbTests.FedSwitch(on: true)
        private let opened: AsyncStream<Void>
        private let opening: AsyncStream<Void>.Continuation

        init() { (opened, opening) = AsyncStream.makeStream() }

        func states() -> AsyncStream<DesktopDoNotDisturb> { fed.states() }

        func refresh() async -> DesktopDoNotDisturb? {
            for await _ in opened { break }
            return nil
        }

        /// Lets every reading go on, now and later.
        func open() { opening.finish() }
    }

    @Test("a held notification is listed at the first call after a restart, before the daemon takes its firing in")
    func heldListedAtFirstCall() async throws {
        try await withPrivateBus { bus in
            let serverConnection = try await bus.connect()
            let server = NotificationServer()
            let events = server.events()
            try await server.start(on: serverConnection, profile: NotificationServerProfile.dunst.withoutDefaultExpiry)
            try await DaemonFixture.run(
                bus: bus, server: server, events: events, doNotDisturb: DesktopDoNotDisturbTests.FedSwitch(on: true)
            ) { fixture in
                try await DesktopDoNotDisturbTests.awaitSwitchOn(fixture)
                _ = try await fixture.post(DesktopDoNotDisturbTests.notification("Ann"))
                #expect(try await DesktopDoNotDisturbTests.heldTitles(fixture) == ["Ann"])
            }
            let desktop = StalledSwitch()
            try await DaemonFixture.run(bus: bus, server: server, events: events, doNotDisturb: desktop) { fixture in
                defer { desktop.open() }
                #expect(try await Self.listedTitles(fixture) == ["Ann"], "listed at the daemon's first answer")
                desktop.open()
                try await withTimeout(.seconds(30), waitingFor: "Ann to be held again") {
                    while try await DesktopDoNotDisturbTests.heldTitles(fixture) != ["Ann"] {
                        try await Task.sleep(for: .milliseconds(5))
                    }
                }
            }
            await serverConnection.close()
        }
    }

    /// The titles of every notification `ListPending` lists for the app, held or scheduled.
    static func listedTitles(_ fixture: DaemonFixture) async throws -> [String] {
        let listed = try await fixture.call(
            BridgeMethod.listPending.name, [.vardict([FilterKeys.appName.name: .string("Chat")])])
        guard case .array(_, let items)? = listed.first else { return [] }
        return items.compactMap { WireEntries($0)?[PostKeys.title] }
    }
}
