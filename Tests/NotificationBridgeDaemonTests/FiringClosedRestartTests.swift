import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationScheduling
import NotificationServerKit
import Synchronization
import Testing

/// A scheduled notification that comes due, is shown, and is closed by the user at once is over: a restart of the
/// daemon does not show it again. The session reports the close as soon as the server's answer to `Notify` is in, and
/// the daemon could read that close before the answer; the firing was then taken for one withdrawn, whose withdrawal
/// had taken it off the disk, and stayed there to fire again at the next start. Found by the daemon simulation (seed
/// 45 step 309: a snoozed notification woken, dismissed at once, shown again after a restart).
@Suite("A firing closed at once, across a restart")
struct FiringClosedRestartTests {
    /// Scheduled notifications, all coming due at once: the more, the likelier a close is read before its answer.
    static let count = 30

    @Test("scheduled notifications dismissed as soon as the server shows them are not shown again after a restart")
    func dismissedFiringsStayEnded() async throws {
        try await withPrivateBus { bus in
            let serverConnection = try await bus.connect()
            let server = NotificationServer()
            let events = server.events()
            try await server.start(on: serverConnection, profile: NotificationServerProfile.dunst.withoutDefaultExpiry)
            let clock = ManualSchedulerClock(now: Date())
            let run = await outcome {
                try await DaemonFixture.run(bus: bus, server: server, events: events, schedulerClock: clock) {
                    fixture in
                    for index in 0..<Self.count {
                        _ = try await DaemonSimulationTests.post("f\(index)", thread: nil, in: 60, fixture)
                    }
                    // The user dismisses each the moment it shows.
                    let watched = server.events()
                    clock.advance(by: 120)
                    try await withTimeout(.seconds(20), waitingFor: "all \(Self.count) shown and dismissed") {
                        var dismissed = 0
                        for await event in watched {
                            guard case .notified(let shown) = event else { continue }
                            try await server.dismiss(id: shown.id)
                            dismissed += 1
                            if dismissed == Self.count { return }
                        }
                    }
                    try await withTimeout(.seconds(10), waitingFor: "the daemon to list none") {
                        while try await !RepostRestartTests.listed(fixture, app: "Sim").isEmpty {
                            try await Task.sleep(for: .milliseconds(5))
                        }
                    }
                }
                // Answered once the last run's state is back: nothing waits to be shown, nothing is shown.
                try await DaemonFixture.run(bus: bus, server: server, events: events, schedulerClock: clock) {
                    fixture in
                    let (held, scheduled) = try await DaemonSimulationTests.pending(fixture)
                    #expect(held.isEmpty && scheduled.isEmpty, "ListPending after the restart: \(held + scheduled)")
                    let listed = try await RepostRestartTests.listed(fixture, app: "Sim")
                    #expect(listed.isEmpty, "ListDelivered after the restart: \(listed.map(\.id))")
                }
            }
            await serverConnection.close()
            try run.get()
        }
    }
}
