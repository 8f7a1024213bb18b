import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationBridgeDaemon
import NotificationServerKit
import Synchronization
import Testing

/// One program at its limit leaves every other program untouched: waiting calls, attached names and categories are
/// bounded for each connection, each with a message that says which limit and how to free it.
@Suite("Limits per connection")
struct ConnectionLimitTests {
    /// Sends `count` calls of `method` from `connection` without waiting for them, in order: the daemon takes them
    /// before any call the connection makes after.
    static func flood(
        _ connection: DBusConnection, _ method: String, count: Int, _ arguments: (Int) -> [DBusValue]
    ) throws {
        for index in 0..<count {
            try connection.send(
                destination: BridgeAPI.busName, path: BridgeAPI.objectPath, interface: BridgeAPI.interfaceName,
                method: method, arguments: arguments(index))
        }
    }

    /// What `call` threw, `nil` when it returned.
    static func failure(_ call: () async throws -> Void) async -> DBusFailure? {
        do {
            try await call()
            return nil
        } catch {
            return error as? DBusFailure ?? DBusFailure(name: "other", message: "\(error)")
        }
    }

    @Test("a connection holding its most WaitForResponse calls is refused one more; another's wait still works")
    func waits() async throws {
        try await DaemonFixture.with { fixture in
            let id = try await fixture.post([
                PostKeys.title.name: .string("Deploy?"), PostKeys.actions.name: ActionList.plain(id: "yes"),
            ])
            let shown = try await fixture.nextNotification()
            let greedy = try await fixture.bus.connect()
            try Self.flood(greedy, BridgeMethod.waitForResponse.name, count: 256) { _ in [.string(id)] }
            let refused = await Self.failure {
                try await fixture.call(BridgeMethod.waitForResponse.name, [.string(id)], from: greedy)
            }
            #expect(refused?.name == BridgeError.limitExceeded.rawValue, "\(String(describing: refused))")
            #expect(refused?.message.contains("this connection") == true)

            // Another connection waits on another notification: taken, not refused, and answered on the click. (Had
            // it come only after the click, the kept response would answer it just the same.)
            let second = try await fixture.post([
                PostKeys.title.name: .string("Roll back?"), PostKeys.actions.name: ActionList.plain(id: "yes"),
            ])
            let secondShown = try await fixture.nextNotification()
            let other = try await fixture.bus.connect()
            let ended = EndedFlag()
            let waiting = Task {
                defer { ended.value.store(true, ordering: .releasing) }
                return try await fixture.call(BridgeMethod.waitForResponse.name, [.string(second)], from: other)
            }
            // A refusal would come back at once; a wait that was taken is still waiting.
            try await Task.sleep(for: .milliseconds(300))
            #expect(!ended.hasEnded, "the other connection's wait ended before the click")
            try await fixture.scripted.invokeAction(id: secondShown.id, key: "yes")
            let answer = try await withTimeout(.seconds(20), waitingFor: "the other connection's wait") {
                try await waiting.value
            }
            _ = shown
            #expect(answer.first == .string("yes"))
            await greedy.close()
            await other.close()
        }
    }

    @Test("a connection attached as its most app names is refused one more; another connection attaches")
    func attachments() async throws {
        try await DaemonFixture.with { fixture in
            let greedy = try await fixture.bus.connect()
            try Self.flood(greedy, BridgeMethod.attach.name, count: 16) { [.string("App\($0)"), .vardict([:])] }
            let refused = await Self.failure {
                try await fixture.call(BridgeMethod.attach.name, [.string("OneMore"), .vardict([:])], from: greedy)
            }
            #expect(refused?.name == BridgeError.limitExceeded.rawValue, "\(String(describing: refused))")
            #expect(refused?.message.contains(BridgeMethod.detach.name) == true)
            // Attaching again as a name it has is no new name.
            #expect(
                await Self.failure {
                    try await fixture.call(BridgeMethod.attach.name, [.string("App3"), .vardict([:])], from: greedy)
                } == nil)
            let other = try await fixture.bus.connect()
            #expect(
                await Self.failure {
                    try await fixture.call(BridgeMethod.attach.name, [.string("Mail"), .vardict([:])], from: other)
                } == nil)
            await greedy.close()
            await other.close()
        }
    }

    @Test("a connection that registered its most categories is refused one more; another connection registers")
    func categories() async throws {
        try await DaemonFixture.with { fixture in
            let greedy = try await fixture.bus.connect()
            try Self.flood(greedy, BridgeMethod.registerCategory.name, count: 128) {
                [.string("spam\($0)"), ActionList.plain(id: "ok"), .vardict([:])]
            }
            let refused = await Self.failure {
                try await fixture.call(
                    BridgeMethod.registerCategory.name,
                    [.string("spam-more"), ActionList.plain(id: "ok"), .vardict([:])], from: greedy)
            }
            #expect(refused?.name == BridgeError.limitExceeded.rawValue, "\(String(describing: refused))")
            #expect(refused?.message.contains(BridgeMethod.removeCategory.name) == true)
            let other = try await fixture.bus.connect()
            #expect(
                await Self.failure {
                    try await fixture.call(
                        BridgeMethod.registerCategory.name,
                        [.string("message"), ActionList.plain(id: "open"), .vardict([:])],
                        from: other)
                } == nil)
            // Once it has gone, its categories stay registered but no longer count against a connection.
            await greedy.close()
            await other.close()
        }
    }
}

/// Whether a task has ended, readable from another.
private final class EndedFlag: Sendable {
    let value = Atomic(false)
    var hasEnded: Bool { value.load(ordering: .acquiring) }
}
