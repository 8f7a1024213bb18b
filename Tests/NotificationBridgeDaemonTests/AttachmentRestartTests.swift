import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationModel
import Testing

/// A ``BridgeAttachment`` attaches again to a daemon that restarted, for as long as its `run()` runs in the app's task
/// group, and no longer once that has ended; cancelled, it detaches the app.
@Suite("an attachment across a restart of the daemon")
struct AttachmentRestartTests {
    /// Posts as app `Mail` from a connection that then closes, clicks the notification, and says whether the
    /// attachment received the response (the daemon routes a response whose poster is gone to the app's attachment).
    private static func responseReaches(
        _ attachment: BridgeAttachment, _ setup: SchedulingTests.Setup, within limit: Duration
    ) async throws -> Bool {
        let id = try await setup.postFromGoneConnectionAndClick(title: "Mail from Ann", appName: "Mail", label: "Open")
        let events = attachment.events
        let received = try? await withTimeout(limit, waitingFor: "the response at the attachment") {
            for await event in events {
                if case .responded(let response) = event, response.notificationID == id { return true }
            }
            return false
        }
        return received == true
    }

    @Test("after kill -9 and a restart, responses reach the attachment while run() runs")
    func attachesAgain() async throws {
        try await SchedulingTests.withSetup(.plasma) { setup in
            let first = try await setup.startDaemon()
            let connection = try await setup.bus.connect()
            let attachment = try await BridgeAttachment(
                proxy: BridgeProxy(connection: connection), appName: "Mail", foreground: false)
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { await attachment.run() }
                first.signal(SIGKILL)
                #expect(await first.wait(within: .seconds(10)) == 128 + SIGKILL)
                let second = try await setup.startDaemon()
                defer { second.stop() }
                #expect(
                    try await Self.responseReaches(attachment, setup, within: .seconds(20)),
                    "the restarted daemon's response did not reach the attachment")
                group.cancelAll()
            }
            await connection.close()
        }
    }

    @Test("without run(), a restarted daemon does not know the attachment: its responses go nowhere")
    func notWithoutRun() async throws {
        try await SchedulingTests.withSetup(.plasma) { setup in
            let first = try await setup.startDaemon()
            let connection = try await setup.bus.connect()
            let attachment = try await BridgeAttachment(
                proxy: BridgeProxy(connection: connection), appName: "Mail", foreground: false)
            first.signal(SIGKILL)
            #expect(await first.wait(within: .seconds(10)) == 128 + SIGKILL)
            let second = try await setup.startDaemon()
            defer { second.stop() }
            // Bounded: the response is kept for a WaitForResponse instead, and never signalled here.
            #expect(try await !Self.responseReaches(attachment, setup, within: .seconds(3)))
            await connection.close()
        }
    }

    @Test("cancelling run() detaches the app: the next response is kept for WaitForResponse, not sent to it")
    func cancellationDetaches() async throws {
        try await SchedulingTests.withSetup(.plasma) { setup in
            let daemon = try await setup.startDaemon()
            defer { daemon.stop() }
            let connection = try await setup.bus.connect()
            let proxy = BridgeProxy(connection: connection)
            let attachment = try await BridgeAttachment(proxy: proxy, appName: "Mail", foreground: false)
            try await withTimeout(waitingFor: "run() to end once its group is cancelled") {
                await withDiscardingTaskGroup { group in
                    group.addTask { await attachment.run() }
                    group.cancelAll()
                }
            }
            // Answered after the Detach sent on the way out, which the daemon takes in the order it came.
            _ = try await proxy.listPending(NotificationFilter(appName: "Mail"))
            let id = try await setup.postFromGoneConnectionAndClick(
                title: "Mail from Ann", appName: "Mail", label: "Open")
            // Kept only when no app is attached: with the attachment still known, the wait would never be answered.
            let kept = try await withTimeout(.seconds(20), waitingFor: "the response kept for WaitForResponse") {
                try await proxy.waitForResponse(id: id)
            }
            #expect(kept.actionID == "default")
            await connection.close()
        }
    }
}
