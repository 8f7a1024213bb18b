import DBusTestSupport
import NotificationBridge
import NotificationBridgeAPI
import NotificationStore
import Synchronization
import Testing

@testable import NotificationBridgeDaemon

/// The daemon's long-lived parts run as children of its service group: a graceful shutdown, which SIGTERM starts,
/// ends them before the daemon's run returns, and leaves none of them running.
@Suite("The lifetimes of the daemon's services")
struct ServiceLifetimeTests {
    /// A desktop switch that is never told anything: it records when the daemon starts following it and when that
    /// ends.
    final class WatchedSwitch: DesktopDoNotDisturbWatching {
        let starts: AsyncStream<Void>
        private let started: AsyncStream<Void>.Continuation
        private let idle = AsyncStream<Void>.makeStream()
        private let ended = Mutex(false)

        init() { (starts, started) = AsyncStream.makeStream() }

        /// Whether a run of ``run()`` has returned.
        var hasEnded: Bool { ended.withLock { $0 } }

        func states() -> AsyncStream<DesktopDoNotDisturb> { AsyncStream { _ in } }

        func run() async {
            started.yield()
            // Nothing is ever sent on `idle`: the loop ends only when the task is cancelled.
            for await _ in idle.stream {}
            ended.withLock { $0 = true }
        }
    }

    @Test("a graceful shutdown ends the run of the do-not-disturb watcher before the daemon's run returns")
    func shutdownEndsTheWatcher() async throws {
        let watcher = WatchedSwitch()
        try await DaemonFixture.with(doNotDisturb: watcher) { _ in
            try await withTimeout(.seconds(30), waitingFor: "the daemon to run the watcher") {
                for await _ in watcher.starts { return }
            }
            #expect(!watcher.hasEnded, "the watcher runs as long as the daemon serves")
        }
        // DaemonFixture has triggered the group's graceful shutdown and waited, bounded, for the daemon to return.
        #expect(watcher.hasEnded, "the daemon returned with the watcher's run still going")
    }

    @Test("a graceful shutdown gives the state directory back and closes the daemon's connection before run returns")
    func shutdownLetsEverythingGo() async throws {
        try await withPrivateBus { bus in
            let watcher = try await bus.connect()
            let daemonConnection = try await DaemonFixture.run(bus: bus, server: nil, events: AsyncStream { _ in }) {
                fixture in
                try #require(try await fixture.client.nameOwner(of: BridgeAPI.busName))
            }
            // DaemonFixture has triggered the group's graceful shutdown and waited, bounded, for the daemon to return.
            #expect(try await !watcher.nameHasOwner(BridgeAPI.busName), "the bus name is still owned")
            #expect(try await !watcher.nameHasOwner(daemonConnection), "the daemon's connection is still open")
            // The store is closed: its directory's lock is free for the next daemon at once.
            let state = bus.directory.appendingPathComponent("test/state").path
            let lock = try await StateDirectoryLock.acquire(directory: state, within: .zero)
            lock.release()
            await watcher.close()
        }
    }
}
