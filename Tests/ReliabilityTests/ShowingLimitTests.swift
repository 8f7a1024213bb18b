import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import Testing

extension Reliability {
    /// Showing notifications are bounded per app as scheduled ones are: an app at its limit is refused with the limit
    /// and the way out, the others are not, and closing one makes room.
    @Suite("showing notifications: bounded per app")
    struct ShowingLimitTests {
        static let perApp = 10_000
        static let connections = 8
        /// Posts each connection keeps in flight: 64 in all, each a `Notify` the daemon has out to the server. With 128,
        /// the daemon's connection reached the private bus's bound on the replies one connection may wait for.
        static let window = 8

        @Test(
            "an app with 10,000 showing is refused one more, with the limit and how to free it; others are not; WithdrawAll takes all of them off the server"
        )
        func appAtItsLimit() async throws {
            try await DaemonRig.with { rig in
                let daemon = try await rig.startDaemon()
                defer { daemon.stop() }
                // The server's events are read as they come, so that the test's own memory does not hold them all.
                let events = rig.events
                let draining = Task { for await _ in events {} }
                defer { draining.cancel() }
                let clients = try await rig.connections(Self.connections)
                defer { for client in clients { Task { await client.close() } } }
                let posted = Collector<String>()
                try await LeakTests.cycles(Self.perApp, over: clients, window: Self.window) { client, _ in
                    let id = try await rig.post(
                        [PostKeys.title.name: .string("Parcel"), PostKeys.appName.name: .string("Busy")],
                        from: client)
                    _ = posted.append(id)
                }

                let oneMore: [String: DBusValue] = [
                    PostKeys.title.name: .string("One more"), PostKeys.appName.name: .string("Busy"),
                ]
                do {
                    _ = try await rig.post(oneMore)
                    Issue.record("a post beyond the app's limit of showing notifications was accepted")
                } catch let failure as DBusFailure {
                    #expect(failure.name == BridgeError.limitExceeded.rawValue, "\(failure)")
                    #expect(failure.message.contains("'Busy'"), "\(failure.message)")
                    #expect(failure.message.contains("showing"), "\(failure.message)")
                    #expect(failure.message.contains("(\(Self.perApp))"), "\(failure.message)")
                    #expect(failure.message.contains(BridgeMethod.withdrawAll.name), "\(failure.message)")
                }
                // Another app shows at once; the app at its limit may still schedule, and may replace one of its own.
                _ = try await rig.post([PostKeys.title.name: .string("Unbothered")])
                let later = try await rig.post([
                    PostKeys.title.name: .string("Later"), PostKeys.appName.name: .string("Busy"),
                    PostKeys.delay.name: .double(86_400),
                ])
                try await rig.call(BridgeMethod.withdraw.name, [.string(later)])
                let first = try #require(posted.all.first)
                _ = try await rig.post([
                    PostKeys.title.name: .string("Parcel, updated"), PostKeys.appName.name: .string("Busy"),
                    PostKeys.replaces.name: .string(first),
                ])
                // Closing one makes room for one.
                try await rig.call(BridgeMethod.withdraw.name, [.string(first)])
                _ = try await rig.post(oneMore)

                // Withdrawing all 10,000 takes every one off the server: the closes go out in turn, within the bus's
                // bound on the replies a connection may wait for, instead of all at once and most of them refused.
                _ = try await rig.call(
                    BridgeMethod.withdrawAll.name, [.vardict([FilterKeys.appName.name: .string("Busy")])])
                let deadline = ContinuousClock.now + .seconds(120)
                var showing = await rig.server.shownNotifications.filter { $0.appName == "Busy" }.count
                while showing > 0, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(200))
                    showing = await rig.server.shownNotifications.filter { $0.appName == "Busy" }.count
                }
                #expect(showing == 0, "the server still shows \(showing) of the withdrawn app's notifications")
                #expect(
                    try await rig.listed(BridgeMethod.listDelivered.name, [FilterKeys.appName.name: .string("Busy")])
                        .isEmpty)
                #expect(daemon.poll() == nil)
            }
        }
    }
}
