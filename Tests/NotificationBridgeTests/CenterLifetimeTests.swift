import DBusCore
import DBusTestSupport
import NotificationBridge
import NotificationBridgeAPI
import NotificationModel
import NotificationServerKit
import Testing

/// The center's work lives in its `run()`, in the app's task group: the user's clicks reach the app while it runs, and
/// when it ends (by the cancellation of the app's group) nothing of the center is left running and its streams are
/// finished.
@Suite("The center's lifetime")
struct CenterLifetimeTests {
    /// A center of app "Mail" on a private bus with a scripted server, handed to `body` without its `run()` started.
    private static func withCenter(
        _ body: (DesktopNotificationCenter, NotificationServer, AsyncStream<NotificationServerEvent>) async throws ->
            Void
    ) async throws {
        try await withPrivateBus { bus in
            let serverConnection = try await bus.connect()
            let server = NotificationServer()
            let events = server.events()
            try await server.start(on: serverConnection, profile: NotificationServerProfile.dunst.withoutDefaultExpiry)
            async let serverRunning: Void = server.run()
            let connection = try await bus.connect()
            let center = try await DesktopNotificationCenter(
                connection: connection, systemConnection: nil,
                BridgeFixture.configuration(on: bus, promptCommand: ["/bin/false"]))
            let result = await outcome { try await body(center, server, events) }
            await serverConnection.close()
            await serverRunning
            await connection.close()
            await serverConnection.close()
            try result.get()
        }
    }

    @Test("a click reaches the app while run() runs; cancelling its group ends run(), its streams finished")
    func cancellingEndsRun() async throws {
        try await Self.withCenter { center, server, events in
            try await withTimeout(.seconds(30), waitingFor: "run() to end once its group is cancelled") {
                try await withThrowingDiscardingTaskGroup { group in
                    group.addTask { await center.run() }
                    let id = try await center.post(NotificationContent(title: "Ann", defaultActionLabel: "Open"))
                    let served = try await withTimeout(waitingFor: "the server to show it") {
                        for await case .notified(let served) in events { return served }
                        throw TestSupportError("the server's events ended")
                    }
                    try await server.invokeAction(id: served.id, key: "default")
                    let response = try await center.responses.first(waitingFor: "the click")
                    #expect(response.notificationID == id)
                    group.cancelAll()
                }
            }
            // Finished: the loop ends at once instead of waiting for a response.
            let responses = center.responses
            let rest = try await withTimeout(.seconds(10), waitingFor: "the responses to finish") {
                var count = 0
                for await _ in responses { count += 1 }
                return count
            }
            #expect(rest == 0)
        }
    }

    @Test("cancelling the app's task group ends run(), and finishes the center's streams")
    func cancellationEndsRun() async throws {
        try await Self.withCenter { center, _, _ in
            try await withTimeout(.seconds(20), waitingFor: "run() to end once its group is cancelled") {
                await withDiscardingTaskGroup { group in
                    group.addTask { await center.run() }
                    group.cancelAll()
                }
            }
            let events = center.events
            try await withTimeout(.seconds(10), waitingFor: "the center's events to finish") {
                for await _ in events {}
            }
            // Run once: a second run() after the end returns at once.
            try await withTimeout(.seconds(10), waitingFor: "a second run() after the first ended") {
                await center.run()
            }
        }
    }

    @Test("a stream of the desktop's do-not-disturb ends with the center's run()")
    func doNotDisturbChangesEndWithRun() async throws {
        try await Self.withCenter { center, _, _ in
            let changes = center.desktopDoNotDisturbChanges()
            let (read, reading) = AsyncStream.makeStream(of: DesktopDoNotDisturbState.self)
            // One reader for the whole stream, outside the group that runs the center: only run()'s end finishes it.
            async let count = withTimeout(.seconds(60), waitingFor: "the stream to finish once run() has ended") {
                var count = 0
                for await state in changes {
                    count += 1
                    reading.yield(state)
                }
                return count
            }
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { await center.run() }
                let first = try await read.first(within: .seconds(20), waitingFor: "the switch to be read")
                // dunst's switch is not readable without its control interface: off, with no source.
                #expect(first == DesktopDoNotDisturbState(isOn: false, source: ""))
                group.cancelAll()
            }
            #expect(try await count == 1)
            // Asked once run() has ended, the stream ends at once, with nothing to say.
            let late = center.desktopDoNotDisturbChanges()
            let said = try await withTimeout(.seconds(10), waitingFor: "a stream asked after run() to end") {
                var said = 0
                for await _ in late { said += 1 }
                return said
            }
            #expect(said == 0)
        }
    }
}
