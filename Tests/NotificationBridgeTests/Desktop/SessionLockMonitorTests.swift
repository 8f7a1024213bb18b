import DBusCore
import DBusTestSupport
import Foundation
import Testing

@testable import NotificationBridge

@Suite struct SessionLockMonitorTests {
    /// How long each source may take to answer the monitor's probe: the tests are about which source is found, not
    /// about the daemon's 3-second bound, which a loaded machine can pass before a private bus answers.
    static let probeTimeout: Duration = .seconds(30)

    /// Two private buses: one stands in for the system bus, one for the session bus.
    private func withBuses(_ body: (_ system: PrivateBus, _ session: PrivateBus) async throws -> Void) async throws {
        try await withPrivateBus { system in
            try await withPrivateBus { session in try await body(system, session) }
        }
    }

    @Test func followsLogindLockedHintThroughPropertiesChanged() async throws {
        try await withBuses { systemBus, sessionBus in
            let logind = try await DesktopFixtures.Logind.start(on: systemBus, locked: true)
            try await SessionLockMonitor.following(
                system: try await systemBus.connect(), session: try await sessionBus.connect(),
                timeout: Self.probeTimeout
            ) { monitor in
                #expect(monitor.source == .logind)
                #expect(await monitor.isLocked)

                logind.setLocked(false)
                try await withTimeout(waitingFor: "the unlock to be seen") { await monitor.waitUntilUnlocked() }
                #expect(await !monitor.isLocked)

                logind.setLocked(true)
                try await withTimeout(waitingFor: "the lock to be seen") { await monitor.wait(untilLocked: true) }
                #expect(await monitor.isLocked)
            }
        }
    }

    @Test func resolvesTheSessionByPIDWhenGetSessionIsMissing() async throws {
        try await withBuses { systemBus, sessionBus in
            let logind = try await DesktopFixtures.Logind.start(on: systemBus, locked: true, resolution: .byPID)
            try await SessionLockMonitor.following(
                system: try await systemBus.connect(), session: try await sessionBus.connect(),
                timeout: Self.probeTimeout
            ) { monitor in
                #expect(monitor.source == .logind)
                #expect(await monitor.isLocked)
                #expect(logind.askedPIDs.withLock { $0 } == [UInt32(getpid())])
            }
        }
    }

    @Test func fallsBackToTheScreenSaverWhenLogindDoesNotAnswer() async throws {
        try await withBuses { systemBus, sessionBus in
            let saver = try await DesktopFixtures.ScreenSaver.start(on: sessionBus, active: false)
            // The "system bus" runs, but nobody owns org.freedesktop.login1 on it.
            try await SessionLockMonitor.following(
                system: try await systemBus.connect(), session: try await sessionBus.connect(),
                timeout: Self.probeTimeout
            ) { monitor in
                #expect(monitor.source == .screenSaver)
                #expect(await !monitor.isLocked)

                try saver.setActive(true)
                try await withTimeout(waitingFor: "the lock to be seen") { await monitor.wait(untilLocked: true) }
                try saver.setActive(false)
                try await withTimeout(waitingFor: "the unlock to be seen") { await monitor.waitUntilUnlocked() }
                #expect(await !monitor.isLocked)
            }
        }
    }

    @Test func findsAScreenSaverAtTheShortPath() async throws {
        try await withPrivateBus { sessionBus in
            let saver = try await DesktopFixtures.ScreenSaver.start(on: sessionBus, active: true, path: "/ScreenSaver")
            try await SessionLockMonitor.following(
                system: nil, session: try await sessionBus.connect(),
                timeout: Self.probeTimeout
            ) { monitor in
                #expect(monitor.source == .screenSaver)
                #expect(await monitor.isLocked)
                try saver.setActive(false)
                try await withTimeout(waitingFor: "the unlock to be seen") { await monitor.waitUntilUnlocked() }
            }
        }
    }

    @Test func withNoSourceTheSessionIsNeverLocked() async throws {
        try await withPrivateBus { sessionBus in
            try await SessionLockMonitor.following(
                system: nil, session: try await sessionBus.connect(),
                timeout: Self.probeTimeout
            ) { monitor in
                #expect(monitor.source == .none)
                #expect(monitor.source.description == "none")
                #expect(await !monitor.isLocked)
                try await withTimeout(.seconds(1), waitingFor: "waitUntilUnlocked to return at once") {
                    await monitor.waitUntilUnlocked()
                }
            }
        }
    }

    @Test func aScreenSaverThatQuitsWhileLockedCountsAsUnlocked() async throws {
        try await withPrivateBus { sessionBus in
            let saver = try await DesktopFixtures.ScreenSaver.start(on: sessionBus, active: true)
            try await SessionLockMonitor.following(
                system: nil, session: try await sessionBus.connect(),
                timeout: Self.probeTimeout
            ) { monitor in
                #expect(await monitor.isLocked)
                await saver.connection.close()
                try await withTimeout(waitingFor: "the departure to count as an unlock") {
                    await monitor.waitUntilUnlocked()
                }
            }
        }
    }

    @Test func waitingForAnUnlockCanBeCancelled() async throws {
        try await withPrivateBus { sessionBus in
            _ = try await DesktopFixtures.ScreenSaver.start(on: sessionBus, active: true)
            try await SessionLockMonitor.following(
                system: nil, session: try await sessionBus.connect(),
                timeout: Self.probeTimeout
            ) { monitor in
                #expect(await monitor.isLocked)
                let waiter = Task { await monitor.waitUntilUnlocked() }
                waiter.cancel()
                try await withTimeout(waitingFor: "the cancelled wait to return") { await waiter.value }
                #expect(await monitor.isLocked)
            }
        }
    }
}

extension SessionLockMonitor {
    /// Finds a source (``find(system:session:timeout:)``) and runs `body` while ``run()`` follows it in a child task,
    /// which ends with `body`.
    static func following(
        system: DBusConnection?, session: DBusConnection, timeout: Duration,
        _ body: (SessionLockMonitor) async throws -> Void
    ) async throws {
        let monitor = await find(system: system, session: session, timeout: timeout)
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await monitor.run() }
            defer { group.cancelAll() }
            try await body(monitor)
        }
    }
}
