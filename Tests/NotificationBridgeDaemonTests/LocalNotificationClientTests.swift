import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridge
import NotificationBridgeAPI
import NotificationBridgeDaemon
import NotificationModel
import NotificationServerKit
import Testing

/// The Swift API for local notifications against the `notification-bridged` process on a private bus.
@Suite("LocalNotificationClient against the daemon process")
struct LocalNotificationClientTests {
    @Test("schedule: pending lists it with its next fire date; it fires; the response arrives on responses")
    func scheduleFireRespond() async throws {
        try await SchedulingTests.withSetup(.plasma) { setup in
            let daemon = try await setup.startDaemon()
            defer { daemon.stop() }
            let client = try await LocalNotificationClient(connection: try await setup.bus.connect(), appName: "Kettle")
            try await client.running {
                let before = Date()
                var content = NotificationContent(title: "Tea", body: "Ready")
                content.userInfo = ["pot": .number(2)]
                content.actions = [NotificationAction(id: "pour", title: "Pour", activation: .background)]
                // Six seconds: long enough to be still pending when listed, even when the machine is loaded enough to take
                // seconds over the call.
                let id = try await client.schedule(content, trigger: .timeInterval(seconds: 6))

                let pending = try await client.pending()
                #expect(pending.map(\.id) == [id])
                #expect(pending.first?.title == "Tea" && pending.first?.appName == "Kettle")
                let next = try #require(pending.first?.nextFireDate)
                #expect(next >= before.addingTimeInterval(5.9) && next <= before.addingTimeInterval(12), "\(next)")

                let shown = try await setup.nextNotification()
                #expect(shown.summary == "Tea")
                try await withTimeout(waitingFor: "delivered to list it") {
                    while try await client.delivered().map(\.id) != [id] {
                        try await Task.sleep(for: .milliseconds(20))
                    }
                }
                try await setup.server.invokeAction(id: shown.id, key: "pour")
                let response = try await client.responses.first(waitingFor: "the response")
                #expect(response.notificationID == id && response.actionID == "pour")
                #expect(response.userInfo == ["pot": .number(2)])
            }
        }
    }

    @Test("withdraw cancels one, withdrawAll the rest of the app's, and pending is empty after")
    func withdrawing() async throws {
        try await SchedulingTests.withSetup { setup in
            let daemon = try await setup.startDaemon()
            defer { daemon.stop() }
            let client = try await LocalNotificationClient(connection: try await setup.bus.connect(), appName: "Agenda")
            try await client.running {
                let nextYear = LocalDateTime(
                    year: Calendar.current.component(.year, from: Date()) + 1, month: 2, day: 28)
                let first = try await client.schedule(
                    NotificationContent(title: "A"), trigger: .date(.wallClock(nextYear), repeat: .interval(.year)))
                let second = try await client.schedule(
                    NotificationContent(title: "B"),
                    trigger: .calendar(CalendarMatch(weekdays: .mondayToFriday, hour: 9, minute: 0), repeats: true))
                let third = try await client.schedule(
                    NotificationContent(title: "C"), trigger: .timeInterval(seconds: 3600))
                #expect(Set(try await client.pending().map(\.id)) == [first, second, third])
                let calendar = try await client.pending().first { $0.id == second }?.entries[PostKeys.calendar.name]
                #expect(
                    calendar?.stringKeyedEntries?[CalendarKeys.hour.name] == .variant(.int32(9)),
                    "\(String(describing: calendar))")

                try await client.withdraw(id: first)
                #expect(Set(try await client.pending().map(\.id)) == [second, third])
                #expect(Set(try await client.withdrawAll()) == [second, third])
                #expect(try await client.pending().isEmpty)
            }
        }
    }

    @Test("a response to a notification scheduled by an earlier run of the app reaches the app's new client")
    func responseAfterAppRestart() async throws {
        try await SchedulingTests.withSetup(.plasma) { setup in
            let daemon = try await setup.startDaemon()
            defer { daemon.stop() }
            let firstConnection = try await setup.bus.connect()
            let firstRun = try await LocalNotificationClient(connection: firstConnection, appName: "Mail")
            var content = NotificationContent(title: "Reminder")
            content.defaultActionLabel = "Open"
            // Kept on the screen until clicked: the profile's own expiry (seconds) can pass on a loaded machine before
            // the second run is up.
            content.timeout = .never
            let id = try await firstRun.schedule(content, trigger: .timeInterval(seconds: 0.3))
            await firstConnection.close()

            let shown = try await setup.nextNotification()
            let secondRun = try await LocalNotificationClient(
                connection: try await setup.bus.connect(), appName: "Mail")
            try await secondRun.running {
                try await setup.server.invokeAction(id: shown.id, key: "default")
                let response = try await secondRun.responses.first(waitingFor: "the response in the second run")
                #expect(response.notificationID == id && response.isDefaultAction)
            }
        }
    }

    @Test("in the foreground a firing comes to firings instead of the server; present(id:) shows it")
    func foreground() async throws {
        try await SchedulingTests.withSetup { setup in
            let daemon = try await setup.startDaemon()
            defer { daemon.stop() }
            let client = try await LocalNotificationClient(
                connection: try await setup.bus.connect(), appName: "Timer", foreground: true)
            try await client.running {
                let id = try await client.schedule(
                    NotificationContent(title: "Done"), trigger: .timeInterval(seconds: 0.2))
                let firing = try await client.firings.first(waitingFor: "the firing")
                #expect(firing.id == id && firing.title == "Done")

                try await client.setForeground(false)
                _ = try await client.post(NotificationContent(title: "Marker"))
                #expect(try await setup.nextNotification().summary == "Marker", "the firing was shown by the server")
                try await client.present(id: id)
                #expect(try await setup.nextNotification().summary == "Done")
            }
        }
    }

    @Test("cancelling run() finishes responses and firings, and detaches the app: its next response waits for it")
    func cancellationEndsRun() async throws {
        try await SchedulingTests.withSetup(.plasma) { setup in
            let daemon = try await setup.startDaemon()
            defer { daemon.stop() }
            let connection = try await setup.bus.connect()
            let client = try await LocalNotificationClient(connection: connection, appName: "Kettle")
            try await withTimeout(waitingFor: "run() to end once its group is cancelled") {
                await withDiscardingTaskGroup { group in
                    group.addTask { await client.run() }
                    group.cancelAll()
                }
            }
            let (responses, firings) = (client.responses, client.firings)
            try await withTimeout(.seconds(10), waitingFor: "responses and firings to finish") {
                for await _ in responses {}
                for await _ in firings {}
            }
            // Answered after the Detach sent on the way out, which the daemon takes in the order it came.
            _ = try await client.pending()
            // Posted by a connection that is gone by the click: the daemon hands the response to the app's attachment.
            let id = try await setup.postFromGoneConnectionAndClick(title: "Tea", appName: "Kettle", label: "Pour")
            // Kept only when the app is not attached: otherwise it is sent to the connection and the wait never ends.
            let kept = try await withTimeout(.seconds(20), waitingFor: "the response kept for WaitForResponse") {
                try await BridgeProxy(connection: connection).waitForResponse(id: id)
            }
            #expect(kept.actionID == "default")
            await connection.close()
        }
    }
}
