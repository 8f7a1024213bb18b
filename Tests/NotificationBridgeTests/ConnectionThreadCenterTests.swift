import DBusCore
import DBusTestSupport
import Dispatch
import Glibc
import NotificationModel
import Synchronization
import Testing

@testable import NotificationBridge

/// A center whose own work runs on its connection's thread (as the daemon's does) keeps app code off that thread:
/// a handler that blocks does not stop the app from posting, and handlers still run one at a time, in order.
@Suite struct ConnectionThreadCenterTests {
    @Test func aBlockingHandlerDoesNotHoldTheConnectionUp() async throws {
        try await BridgeFixture.with(.plasma, configure: { $0.runsOnConnectionThread = true }) { fixture in
            let connectionThread = await withTaskExecutorPreference(fixture.connection.executor) { pthread_self() }
            let handled = Mutex<[(id: String, onConnectionThread: Bool)]>([])
            let (started, startedSink) = AsyncStream.makeStream(of: Void.self)
            // Stands for app code that blocks until the app is done with something else.
            let unblock = DispatchSemaphore(value: 0)
            defer { unblock.signal() }
            await fixture.center.setHandler(forAction: "delete", inCategory: "message") { response in
                handled.withLock {
                    $0.append((response.notificationID, pthread_equal(pthread_self(), connectionThread) != 0))
                }
                startedSink.yield()
                unblock.wait()
            }

            let (first, firstServed) = try await fixture.post(BridgeFixture.content(title: "Ann"))
            let (second, secondServed) = try await fixture.post(BridgeFixture.content(title: "Bob"))
            try await fixture.server.invokeAction(id: firstServed.id, key: "delete")
            try await fixture.server.invokeAction(id: secondServed.id, key: "delete")
            try await started.first(waitingFor: "the first handler to start")

            // The first handler blocks; posting needs the connection's thread, which must be free. Were the handler
            // on that thread, the post could never end: a watchdog lets the handlers go after a while, and says so.
            let freedByWatchdog = Atomic(false)
            let watchdog = Task {
                try? await Task.sleep(for: .seconds(10))
                guard !Task.isCancelled else { return }
                freedByWatchdog.store(true, ordering: .relaxed)
                // Both handlers, which would otherwise hold the thread in turn.
                unblock.signal()
                unblock.signal()
            }
            _ = try await fixture.center.post(BridgeFixture.content(title: "Cy"))
            watchdog.cancel()
            let postWaited = freedByWatchdog.load(ordering: .relaxed)
            #expect(
                !postWaited,
                "the post waited for a blocking handler: the handler ran on the connection's thread")
            #expect(handled.withLock { $0.count } == 1, "the second handler ran before the first returned")
            unblock.signal()
            try await started.first(waitingFor: "the second handler to start")
            unblock.signal()

            let order = handled.withLock { $0 }
            #expect(order.map(\.id) == [first, second])
            #expect(order.allSatisfy { !$0.onConnectionThread })
        }
    }
}
