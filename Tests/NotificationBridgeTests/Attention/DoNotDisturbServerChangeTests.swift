import DBusCore
import DBusTestSupport
import FreedesktopNotifications
import Logging
import Synchronization
import Testing

@testable import NotificationBridge

/// The watcher of the desktop's do-not-disturb follows the server the session reports, not the bus: two connections
/// that keep dunst's switch (`paused` of `org.dunstproject.cmd0`) and never own `org.freedesktop.Notifications` are
/// read only because the watcher is told of them, each in turn.
@Suite("The do-not-disturb watcher following the session's server")
struct DoNotDisturbServerChangeTests {
    static let dunst = NotificationServerInfo(
        name: "dunst", vendor: "knopwob", version: "1.9.0", specVersion: "1.2",
        capabilities: [ServerCapability.actions.rawValue])

    /// A connection that keeps dunst's switch, set to `paused`.
    static func dunstSwitch(on bus: PrivateBus, paused: Bool) async throws -> DBusConnection {
        let connection = try await bus.connect()
        try await connection.export(
            [
                DBusInterface(
                    "org.dunstproject.cmd0",
                    properties: [.readOnly("paused", "b") { .boolean(paused) }])
            ], at: try DBusObjectPath("/org/freedesktop/Notifications"))
        return connection
    }

    /// The states the watcher told, in order.
    final class Told: Sendable {
        let states = Mutex<[DesktopDoNotDisturb]>([])

        /// Waits, within a bound, until the last state told is `expected`.
        func await(_ expected: DesktopDoNotDisturb, _ what: String) async throws {
            try await withTimeout(.seconds(30), waitingFor: "\(what): \(expected) (told: \(states.withLock { $0 }))") {
                while self.states.withLock({ $0.last }) != expected { try await Task.sleep(for: .milliseconds(10)) }
            }
        }
    }

    @Test("told of another server, the watcher reads that server's switch; told of none, it reads off")
    func switchesReaderWithTheSession() async throws {
        try await withPrivateBus { bus in
            let first = try await Self.dunstSwitch(on: bus, paused: true)
            let second = try await Self.dunstSwitch(on: bus, paused: false)
            let connection = try await bus.connect()
            let watcher = DesktopDoNotDisturbWatcher(
                connection: connection, settings: nil, logger: Logger(label: "test"), owner: first.uniqueName,
                info: Self.dunst)
            let states = watcher.states()
            let told = Told()
            let running = Task {
                await withDiscardingTaskGroup { group in
                    group.addTask { await watcher.run() }
                    for await state in states { told.states.withLock { $0.append(state) } }
                }
            }
            defer { running.cancel() }
            try await told.await(DesktopDoNotDisturb(source: .dunst, isOn: true), "the first server's switch")
            // Taken by a server that has not answered yet: what was read stays, nothing is told.
            watcher.serverChanged(owner: second.uniqueName, info: nil)
            watcher.serverChanged(owner: second.uniqueName, info: Self.dunst)
            try await told.await(DesktopDoNotDisturb(source: .dunst, isOn: false), "the second server's switch")
            watcher.serverChanged(owner: first.uniqueName, info: Self.dunst)
            try await told.await(DesktopDoNotDisturb(source: .dunst, isOn: true), "the first server's switch again")
            watcher.serverChanged(owner: nil, info: nil)
            try await told.await(.unknown, "no server")
            #expect(
                told.states.withLock { $0 } == [
                    DesktopDoNotDisturb(source: .dunst, isOn: true), DesktopDoNotDisturb(source: .dunst, isOn: false),
                    DesktopDoNotDisturb(source: .dunst, isOn: true), .unknown,
                ], "nothing else was told in between")
            running.cancel()
            await first.close()
            await second.close()
            await connection.close()
        }
    }
}
