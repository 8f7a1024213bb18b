import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import Synchronization

/// Clients that post scheduled notifications without pause until told to stop, keeping the ids the daemon
/// acknowledged: what a start, a stop or a hand-over of the daemon must not lose.
final class PostLoop: Sendable {
    private let stopped = Atomic(false)
    /// The ids of the posts that got their id back.
    let acknowledged = Collector<String>()
    /// How many posts failed (refused while the daemon stops, or sent while no daemon owned the name).
    let failures = Atomic(0)
    /// The app name every post is made under, for `ListPending`'s filter.
    static let appName = "Loop"

    /// Posts from each of `connections`, `window` calls in flight on each, until ``stop()``.
    func run(_ rig: DaemonRig, connections: [DBusConnection], window: Int = 4) async {
        await withTaskGroup(of: Void.self) { group in
            for (client, connection) in connections.enumerated() {
                group.addTask { await self.post(rig, client: client, connection: connection, window: window) }
            }
        }
    }

    /// Ends the loop: the calls in flight finish, no new ones start.
    func stop() { stopped.store(true, ordering: .sequentiallyConsistent) }

    /// Returns once at least `count` posts have been acknowledged, failing after `limit`.
    func waitForAcknowledged(_ count: Int, within limit: Duration = .seconds(30)) async throws {
        let acknowledged = self.acknowledged
        try await withTimeout(limit, waitingFor: "\(count) posts to be acknowledged") {
            while acknowledged.all.count < count { try await Task.sleep(for: .milliseconds(10)) }
        }
    }

    private func post(_ rig: DaemonRig, client: Int, connection: DBusConnection, window: Int) async {
        await withTaskGroup(of: Void.self) { calls in
            var index = 0
            while !stopped.load(ordering: .sequentiallyConsistent) {
                if index >= window { await calls.next() }
                let title = "Loop \(client)-\(index)"
                calls.addTask {
                    let reply = await outcome {
                        try await rig.post(
                            [
                                PostKeys.title.name: .string(title), PostKeys.appName.name: .string(Self.appName),
                                PostKeys.delay.name: .double(3600),
                            ], from: connection)
                    }
                    switch reply {
                    case .success(let id): self.acknowledged.append(id)
                    case .failure: self.failures.add(1, ordering: .relaxed)
                    }
                }
                index += 1
            }
        }
    }

    /// The acknowledged ids `ListPending` of the daemon owning the name does not list.
    func lost(_ rig: DaemonRig) async throws -> Set<String> {
        let pending = try await rig.pendingIDs([FilterKeys.appName.name: .string(Self.appName)])
        return Set(acknowledged.all).subtracting(pending)
    }
}

extension DaemonRig {
    /// `count` connections of their own to the rig's bus.
    func connections(_ count: Int) async throws -> [DBusConnection] {
        try await withThrowingTaskGroup(of: DBusConnection.self) { group in
            for _ in 0..<count { group.addTask { try await bus.connect() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }
}
