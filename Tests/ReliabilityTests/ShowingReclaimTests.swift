import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import Testing

extension Reliability {
    /// A large withdrawal of showing notifications gives back the memory they took, as one of scheduled notifications
    /// does (``StoreReclaimTests``): each showing one is also a route, a server id and the daemon's copy of its
    /// content, and the closes the withdrawal sends to the server are queued.
    @Suite("memory after a large withdrawal of showing notifications")
    struct ShowingReclaimTests {
        /// Apps that post, each up to its limit of showing notifications: 100,000 in all by default
        /// (`NB_RECLAIM_APPS` sets another count of apps, each posting 10,000).
        static let apps = StoreReclaimTests.apps
        static let perApp = 10_000
        static let connections = 8
        /// Posts each connection keeps in flight: 64 in all, each a `Notify` out to the server, within the private
        /// bus's bound on the replies one connection may wait for.
        static let window = 8
        /// A body of some size, as a real notification has.
        static let body = StoreReclaimTests.body

        @Test("100,000 showing, withdrawn: the server shows none of them, memory within 1.5× idle")
        func reclaimAfterWithdrawal() async throws {
            try await DaemonRig.with { rig in
                let daemon = try await rig.startDaemon()
                defer { daemon.stop() }
                // The server's events are read as they come, so that the test's own memory does not hold them all.
                let events = rig.events
                let draining = Task { for await _ in events {} }
                defer { draining.cancel() }
                let clients = try await rig.connections(Self.connections)
                defer { for client in clients { Task { await client.close() } } }
                // The idle figure of a daemon that has served: its threads and buffers are there, nothing is showing.
                try await LeakTests.cycles(1_000, over: clients, window: Self.window) { client, index in
                    let id = try await rig.post(
                        [PostKeys.title.name: .string("Warm-up \(index)"), PostKeys.body.name: .string(Self.body)],
                        from: client)
                    try await rig.call(BridgeMethod.withdraw.name, [.string(id)], from: client)
                }
                let idle = try LeakTests.residentMemory(of: daemon.pid)
                let start = ContinuousClock.now
                let counter = Collector<Int>()
                try await LeakTests.cycles(Self.apps * Self.perApp, over: clients, window: Self.window) { client, _ in
                    // Every call of every connection goes to the next app, so that each app reaches its limit.
                    let app = (counter.append(0) - 1) % Self.apps
                    _ = try await rig.post(
                        [
                            PostKeys.title.name: .string("Parcel"), PostKeys.body.name: .string(Self.body),
                            PostKeys.appName.name: .string("App \(app)"),
                        ], from: client)
                }
                let posting = ContinuousClock.now - start
                let peak = try LeakTests.residentMemory(of: daemon.pid)
                #expect(await rig.server.shownNotifications.count == Self.apps * Self.perApp)

                let withdrawing = ContinuousClock.now
                for app in 0..<Self.apps {
                    let withdrawn = try await rig.call(
                        BridgeMethod.withdrawAll.name, [.vardict([FilterKeys.appName.name: .string("App \(app)")])],
                        timeout: .seconds(120)
                    ).decode([String].self)
                    #expect(withdrawn.count == Self.perApp)
                }
                // The closes go out after the answers, a few at a time; the memory comes back once they are done.
                let limit = idle * 3 / 2
                let deadline = ContinuousClock.now + .seconds(120)
                var showing = await rig.server.shownNotifications.count
                var after = try LeakTests.residentMemory(of: daemon.pid)
                while showing > 0 || after > limit, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(200))
                    showing = await rig.server.shownNotifications.count
                    after = try LeakTests.residentMemory(of: daemon.pid)
                }
                let closing = ContinuousClock.now - withdrawing
                print(
                    "\(Self.apps * Self.perApp) showing in \(posting), withdrawn and closed in \(closing): resident "
                        + "memory \(idle >> 10) KiB idle, \(peak >> 10) KiB full, \(after >> 10) KiB after")
                #expect(showing == 0, "the server still shows \(showing) of the withdrawn notifications")
                let memory =
                    "resident memory \(after >> 10) KiB after the withdrawal, \(idle >> 10) KiB idle (at most "
                    + "\(limit >> 10) KiB), \(peak >> 10) KiB full"
                #expect(after <= limit || StoreReclaimTests.sanitized, "\(memory)")
                #expect(
                    try await rig.listed(BridgeMethod.listDelivered.name, [FilterKeys.appName.name: .string("App 0")])
                        .isEmpty)
                #expect(daemon.poll() == nil)
            }
        }
    }
}
