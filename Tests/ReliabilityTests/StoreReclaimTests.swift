import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import Testing

extension Reliability {
    /// A large withdrawal gives back what the scheduled notifications took: the store's file space, the daemon's
    /// memory. And the bound on each app's scheduled notifications holds one app back, not the others.
    @Suite("space and memory after a large withdrawal")
    struct StoreReclaimTests {
        /// Apps that schedule, each up to its limit: 100,000 notifications in all by default (`NB_RECLAIM_APPS` sets
        /// another count of apps, each scheduling 10,000).
        static let apps = ProcessInfo.processInfo.environment["NB_RECLAIM_APPS"].flatMap { Int($0) } ?? 10
        static let perApp = 10_000
        static let connections = 8
        /// Posts each connection keeps in flight.
        static let window = 16
        /// A body of some size, so that the rows take room: 100,000 of them are about 50 MB on disk.
        static let body = String(repeating: "Water the plants on the balcony. ", count: 12)
        /// Whether the daemon runs under AddressSanitizer (`make asan`), whose allocator holds freed memory in
        /// quarantine: its resident memory cannot fall back, so only the file's size is checked then.
        static let sanitized = ProcessInfo.processInfo.environment["ASAN_OPTIONS"] != nil

        @Test("100,000 scheduled, withdrawn: state.db shrinks near an empty store's size, memory within 1.5× idle")
        func reclaimAfterWithdrawal() async throws {
            try await DaemonRig.with { rig in
                let daemon = try await rig.startDaemon()
                defer { daemon.stop() }
                _ = try await rig.pendingIDs()
                let database = rig.stateDirectory.appendingPathComponent("state.db").path
                let emptySize = try Self.size(of: database)
                let clients = try await rig.connections(Self.connections)
                defer { for client in clients { Task { await client.close() } } }
                // The idle figure of a daemon that has served: its threads and buffers are there, nothing is pending.
                try await LeakTests.cycles(1_000, over: clients, window: Self.window) { client, index in
                    let id = try await rig.post(
                        [
                            PostKeys.title.name: .string("Warm-up \(index)"), PostKeys.body.name: .string(Self.body),
                            PostKeys.delay.name: .double(86_400),
                        ], from: client)
                    try await rig.call(BridgeMethod.withdraw.name, [.string(id)], from: client)
                }
                let idle = try LeakTests.residentMemory(of: daemon.pid)
                let start = ContinuousClock.now
                try await LeakTests.cycles(Self.apps * Self.perApp, over: clients, window: Self.window) { client, _ in
                    // Each connection's calls spread over the apps in turn, so that every app reaches its limit.
                    _ = try await rig.post(
                        [
                            PostKeys.title.name: .string("Plants"), PostKeys.body.name: .string(Self.body),
                            PostKeys.appName.name: .string("App \(Self.nextApp())"),
                            PostKeys.delay.name: .double(86_400),
                        ], from: client)
                }
                let posting = ContinuousClock.now - start
                let fullSize = try Self.size(of: database)
                let peak = try LeakTests.residentMemory(of: daemon.pid)

                // One app at its limit is refused, with the limit and the way out; another app is not.
                do {
                    _ = try await rig.post([
                        PostKeys.title.name: .string("One more"), PostKeys.appName.name: .string("App 0"),
                        PostKeys.delay.name: .double(86_400),
                    ])
                    Issue.record("a post beyond the app's limit was accepted")
                } catch let failure as DBusFailure {
                    #expect(failure.name == BridgeError.limitExceeded.rawValue, "\(failure)")
                    #expect(failure.message.contains("\(Self.perApp)"), "\(failure.message)")
                    #expect(failure.message.contains(BridgeMethod.withdrawAll.name), "\(failure.message)")
                }
                _ = try await rig.post([
                    PostKeys.title.name: .string("Unbothered"), PostKeys.appName.name: .string("Other"),
                    PostKeys.delay.name: .double(86_400),
                ])
                // The limit is on what waits to fire: the app at its limit still shows notifications now, as does
                // any other.
                for app in ["App 0", "Other"] {
                    let shown = try await rig.post([
                        PostKeys.title.name: .string("Now"), PostKeys.appName.name: .string(app),
                    ])
                    try await rig.call(BridgeMethod.withdraw.name, [.string(shown)])
                }

                for app in 0..<Self.apps {
                    let withdrawn = try await rig.call(
                        BridgeMethod.withdrawAll.name, [.vardict([FilterKeys.appName.name: .string("App \(app)")])],
                        timeout: .seconds(120)
                    ).decode([String].self)
                    #expect(withdrawn.count == Self.perApp)
                }
                // The space is given back right after the withdrawal's answer; the memory with it.
                var reclaimedSize = try Self.size(of: database)
                var after = try LeakTests.residentMemory(of: daemon.pid)
                let limit = idle * 3 / 2
                let deadline = ContinuousClock.now + .seconds(30)
                while reclaimedSize > 4 * emptySize || (after > limit && !Self.sanitized),
                    ContinuousClock.now < deadline
                {
                    try await Task.sleep(for: .milliseconds(100))
                    reclaimedSize = try Self.size(of: database)
                    after = try LeakTests.residentMemory(of: daemon.pid)
                }
                print(
                    "\(Self.apps * Self.perApp) scheduled in \(posting): state.db \(emptySize >> 10) KiB empty, "
                        + "\(fullSize >> 10) KiB full, \(reclaimedSize >> 10) KiB after the withdrawal; resident "
                        + "memory \(idle >> 10) KiB idle, \(peak >> 10) KiB full, \(after >> 10) KiB after")
                #expect(fullSize > 20 * emptySize, "the posts took room: \(fullSize) bytes")
                #expect(
                    reclaimedSize <= 4 * emptySize,
                    "state.db is \(reclaimedSize) bytes after the withdrawal, \(emptySize) empty")
                let memory =
                    "resident memory \(after >> 10) KiB after the withdrawal, \(idle >> 10) KiB idle (at most "
                    + "\(limit >> 10) KiB), \(peak >> 10) KiB full"
                #expect(after <= limit || Self.sanitized, "\(memory)")
                #expect(try await rig.pendingIDs([FilterKeys.appName.name: .string("Other")]).count == 1)
                #expect(daemon.poll() == nil)
            }
        }

        private static let counter = Collector<Int>()

        /// The apps in turn, over every call of every connection.
        private static func nextApp() -> Int {
            (counter.append(0) - 1) % apps
        }

        static func size(of path: String) throws -> Int {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            return (attributes[.size] as? NSNumber)?.intValue ?? 0
        }
    }
}
