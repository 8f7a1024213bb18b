import DBusCore
import DBusTestSupport
import Synchronization
import Testing

@testable import NotificationBridge

@Suite struct LockGateTests {
    /// Records which handlers ran, in order, and lets a test await them.
    private final class Deliveries: Sendable {
        let stream: AsyncStream<String>
        private let continuation: AsyncStream<String>.Continuation
        let log = Mutex<[String]>([])

        init() {
            (stream, continuation) = AsyncStream.makeStream(of: String.self)
        }

        func handler(_ name: String) -> @Sendable () async -> Void {
            { [self] in
                log.withLock { $0.append(name) }
                continuation.yield(name)
            }
        }
    }

    @Test func runsAtOnceWhenTheSessionIsUnlocked() async throws {
        try await withPrivateBus { sessionBus in
            try await LockGate.following(
                system: nil, session: try await sessionBus.connect(), timeout: SessionLockMonitorTests.probeTimeout
            ) { monitor, gate in
                let deliveries = Deliveries()
                await gate.deliver(notificationID: "n1", requiresAuthentication: true, deliveries.handler("reply"))
                #expect(deliveries.log.withLock { $0 } == ["reply"])
                #expect(await gate.heldCount == 0)
            }
        }
    }

    @Test func holdsAuthenticatedResponsesUntilUnlockThenDeliversThemInOrder() async throws {
        try await withPrivateBus { sessionBus in
            let saver = try await DesktopFixtures.ScreenSaver.start(on: sessionBus, active: true)
            try await LockGate.following(
                system: nil, session: try await sessionBus.connect(), timeout: SessionLockMonitorTests.probeTimeout
            ) { monitor, gate in
                let deliveries = Deliveries()

                await gate.deliver(notificationID: "n1", requiresAuthentication: true, deliveries.handler("open-mail"))
                await gate.deliver(notificationID: "n2", requiresAuthentication: false, deliveries.handler("mark-read"))
                await gate.deliver(notificationID: "n3", requiresAuthentication: true, deliveries.handler("reply"))
                // A background action without authentication ran on the locked screen; the others wait.
                #expect(deliveries.log.withLock { $0 } == ["mark-read"])
                #expect(await gate.heldCount == 2)

                try saver.setActive(false)
                var released: [String] = []
                for _ in 0..<3 { released.append(try await deliveries.stream.first(waitingFor: "the held responses")) }
                #expect(released == ["mark-read", "open-mail", "reply"])
                #expect(await gate.heldCount == 0)
            }
        }
    }

    @Test func dropsHeldResponsesOfWithdrawnNotifications() async throws {
        try await withPrivateBus { sessionBus in
            let saver = try await DesktopFixtures.ScreenSaver.start(on: sessionBus, active: true)
            try await LockGate.following(
                system: nil, session: try await sessionBus.connect(), timeout: SessionLockMonitorTests.probeTimeout
            ) { monitor, gate in
                let deliveries = Deliveries()

                await gate.deliver(
                    notificationID: "withdrawn", requiresAuthentication: true, deliveries.handler("first"))
                await gate.deliver(notificationID: "kept", requiresAuthentication: true, deliveries.handler("second"))
                await gate.drop(notificationID: "withdrawn")
                #expect(await gate.heldCount == 1)

                try saver.setActive(false)
                let released = try await deliveries.stream.first(waitingFor: "the kept response after unlock")
                #expect(released == "second")
                // The gate is idle again: a new authenticated response runs at once, after nothing else.
                await gate.deliver(notificationID: "later", requiresAuthentication: true, deliveries.handler("third"))
                #expect(deliveries.log.withLock { $0 } == ["second", "third"])
            }
        }
    }

    @Test func responsesArrivingWhileTheLockReturnsWaitForTheNextUnlock() async throws {
        try await withPrivateBus { sessionBus in
            let saver = try await DesktopFixtures.ScreenSaver.start(on: sessionBus, active: true)
            try await LockGate.following(
                system: nil, session: try await sessionBus.connect(), timeout: SessionLockMonitorTests.probeTimeout
            ) { monitor, gate in
                let deliveries = Deliveries()

                await gate.deliver(notificationID: "n1", requiresAuthentication: true, deliveries.handler("first"))
                try saver.setActive(false)
                #expect(try await deliveries.stream.first(waitingFor: "the first response") == "first")

                try saver.setActive(true)
                try await withTimeout(waitingFor: "the new lock") { await monitor.wait(untilLocked: true) }
                await gate.deliver(notificationID: "n2", requiresAuthentication: true, deliveries.handler("second"))
                #expect(await gate.heldCount == 1)
                try saver.setActive(false)
                #expect(try await deliveries.stream.first(waitingFor: "the second response") == "second")
            }
        }
    }
}

extension LockGate {
    /// Runs `body` with a gate on a monitor found as ``SessionLockMonitor/find(system:session:timeout:)`` does, while
    /// both run (``SessionLockMonitor/run()``, ``LockGate/run()``) in child tasks that end with `body`.
    static func following(
        system: DBusConnection?, session: DBusConnection, timeout: Duration,
        _ body: (SessionLockMonitor, LockGate) async throws -> Void
    ) async throws {
        try await SessionLockMonitor.following(system: system, session: session, timeout: timeout) { monitor in
            let gate = LockGate(monitor: monitor)
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { await gate.run() }
                defer { group.cancelAll() }
                try await body(monitor, gate)
            }
        }
    }
}
