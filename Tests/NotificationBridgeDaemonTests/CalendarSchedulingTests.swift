import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationBridgeDaemon
import NotificationServerKit
import Testing

/// Calendar triggers through `gdbus call`, and the daemon serving while no notification server runs.
@Suite("Calendar triggers and a missing notification server")
struct CalendarSchedulingTests {
    @Test("a calendar match posted with gdbus is pending at its next matching wall-clock time, listed as posted")
    func calendarIsPending() async throws {
        try await DaemonFixture.with { fixture in
            let posted = try await fixture.gdbus(
                BridgeMethod.post.name,
                "{'title': <'Stand-up'>, 'app-name': <'Team'>, 'calendar': <{'weekdays': <['monday', 'friday']>, "
                    + "'hour': <9>, 'minute': <0>}>, 'repeat': <true>}")
            #expect(posted.status == 0, "\(posted.standardError)")
            let id = try postedID(posted.output)

            let listed = try await fixture.gdbus(BridgeMethod.listPending.name, "{'app-name': <'Team'>}").output
            #expect(listed.contains("'id': <'\(id)'>"), "\(listed)")
            #expect(listed.contains("'calendar': <{"), "\(listed)")
            #expect(listed.contains("'weekdays': <['monday', 'friday']>"), "\(listed)")
            #expect(listed.contains("'hour': <9>"), "\(listed)")
            #expect(listed.contains("'repeat': <true>"), "\(listed)")

            let next = try nextFireDate(in: listed)
            #expect(next > Date() && next <= Date().addingTimeInterval(8 * 86_400), "next fire date \(next)")
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone.current
            let parts = calendar.dateComponents([.weekday, .hour, .minute, .second], from: next)
            #expect([2, 6].contains(parts.weekday), "not a Monday or Friday: \(next)")
            #expect(parts.hour == 9 && parts.minute == 0 && parts.second == 0, "not 09:00:00 local: \(next)")
        }
    }

    @Test("a one-shot calendar match without 'repeat' lists repeat false; its date matches the day of the month")
    func oneShotCalendar() async throws {
        try await DaemonFixture.with { fixture in
            _ = try await fixture.post([
                PostKeys.title.name: .string("Rent"), PostKeys.appName.name: .string("Money"),
                PostKeys.calendar.name: .vardict([
                    CalendarKeys.day.name: .int32(1), CalendarKeys.hour.name: .uint32(8),
                ]),
            ])
            let listed = try await fixture.gdbus(BridgeMethod.listPending.name, "{'app-name': <'Money'>}").output
            #expect(listed.contains("'repeat': <false>"), "\(listed)")
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone.current
            let parts = calendar.dateComponents([.day, .hour], from: try nextFireDate(in: listed))
            #expect(parts.day == 1 && parts.hour == 8, "\(listed)")
        }
    }

    @Test(
        "a wrong calendar Post gets InvalidArgument saying what to change",
        arguments: [
            ("{'title': <'x'>, 'calendar': <{'hour': <9>}>, 'in': <60.0>}", "both 'calendar' and 'in'"),
            ("{'title': <'x'>, 'calendar': <{'hour': <9>}>, 'repeat': <'day'>}", "give 'repeat': <true>"),
            ("{'title': <'x'>, 'in': <60.0>, 'repeat': <true>}", "goes with 'calendar'"),
            ("{'title': <'x'>, 'calendar': <{'weekdays': <['funday']>}>}", "'sunday' … 'saturday'"),
            ("{'title': <'x'>, 'calendar': <{'hour': <25>}>}", "does not match any time"),
            ("{'title': <'x'>, 'calendar': <@a{sv} {}>}", "does not match any time"),
            ("{'title': <'x'>, 'calendar': <{'hours': <9>}>}", "did you mean 'hour'?"),
            ("{'title': <'x'>, 'calendar': <{'hour': <'nine'>}>}", "expected an int32"),
            ("{'title': <'x'>, 'calendar': <{'hour': <9>}>, 'time-zone': <'Europe/Paris'>}", "always follows"),
        ])
    func badCalendar(notification: String, expected: String) async throws {
        try await DaemonFixture.with { fixture in
            let result = try await fixture.gdbus(BridgeMethod.post.name, notification)
            #expect(result.status != 0)
            #expect(
                result.standardError.contains("io.github.NotificationBridge1.Error.InvalidArgument"),
                "\(result.standardError)")
            #expect(result.standardError.contains(expected), "\(result.standardError)")
            // The daemon keeps serving.
            #expect(try await fixture.gdbus(BridgeMethod.listPending.name, "{}").status == 0)
        }
    }

    @Test("with no notification server the daemon serves: Post now fails, a scheduled one waits for a server")
    func noServer() async throws {
        try await withPrivateBus { bus in
            let (events, sink) = AsyncStream.makeStream(of: NotificationServerEvent.self)
            try await DaemonFixture.run(bus: bus, server: nil, events: events) { fixture in
                let now = try await fixture.gdbus(BridgeMethod.post.name, "{'title': <'Now'>}")
                #expect(now.status != 0)
                #expect(
                    now.standardError.contains("io.github.NotificationBridge1.Error.NoServer"),
                    "\(now.standardError)")
                #expect(now.standardError.contains("start one"), "\(now.standardError)")

                let id = try await fixture.post([
                    PostKeys.title.name: .string("Later"), PostKeys.appName.name: .string("Oven"),
                    PostKeys.delay.name: .double(0.3),
                ])
                // It comes due with nobody to show it: it leaves the queue, and waits for a server.
                try await withTimeout(waitingFor: "the notification to come due") {
                    while try await fixture.gdbus(BridgeMethod.listPending.name, "{'app-name': <'Oven'>}").output
                        != "(@aa{sv} [],)"
                    {
                        try await Task.sleep(for: .milliseconds(50))
                    }
                }

                let serverConnection = try await bus.connect()
                let server = NotificationServer()
                let served = server.events()
                let forward = Task { for await event in served { sink.yield(event) } }
                try await server.start(on: serverConnection, profile: .fullFeatured)
                async let serverRunning: Void = server.run()
                let shown = try await fixture.nextNotification()
                #expect(shown.summary == "Later")
                let delivered = try await fixture.gdbus(BridgeMethod.listDelivered.name, "{'app-name': <'Oven'>}")
                    .output
                #expect(delivered.contains("'id': <'\(id)'>"), "\(delivered)")
                // And posting now works.
                #expect(try await fixture.gdbus(BridgeMethod.post.name, "{'title': <'Now'>}").status == 0)
                forward.cancel()
                await serverConnection.close()
                await serverRunning
            }
        }
    }
}

/// The `next-fire-date` in `gdbus` output of `ListPending` with one notification.
private func nextFireDate(in output: String) throws -> Date {
    guard let rest = output.components(separatedBy: "'next-fire-date': <int64 ").dropFirst().first,
        let seconds = Double(rest.prefix { $0.isNumber })
    else { throw TestSupportError("no next-fire-date in \(output)") }
    return Date(timeIntervalSince1970: seconds)
}
