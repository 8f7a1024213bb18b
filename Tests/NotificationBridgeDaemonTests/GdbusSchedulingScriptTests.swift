import DBusCore
import DBusTestSupport
import Foundation
import NotificationBridgeAPI
import NotificationBridgeDaemon
import NotificationServerKit
import Testing

/// Scheduling `gdbus` scripts, run as they are written: what `ListPending` then says about each (its
/// next fire date computed here in the zone the daemon reads, this process's), and the notification reaching the
/// server when due.
@Suite("gdbus scheduling scripts")
struct GdbusSchedulingScriptTests {
    typealias Examples = GdbusScripts

    /// Runs `example`, checks that it printed `('$id',)`, and returns the id.
    private static func post(_ example: GdbusScript, in fixture: DaemonFixture) async throws -> String {
        let result = try await fixture.sh(example.script)
        #expect(result.status == 0, "\(example): \(result.standardError)")
        let id = try postedID(result.output)
        #expect(result.output == example.output?.replacingOccurrences(of: "$id", with: id), "\(example)")
        return id
    }

    /// The one entry `ListPending` returns for `app`, as `gdbus` prints it.
    private static func pending(_ app: String, in fixture: DaemonFixture) async throws -> String {
        let listed = try await fixture.gdbus("ListPending", "{'app-name': <'\(app)'>}")
        #expect(listed.status == 0, "\(listed.standardError)")
        #expect(listed.output.components(separatedBy: "'next-fire-date'").count == 2, "\(listed.output)")
        return listed.output
    }

    @Test("'in': <240.0> is pending for 240 seconds from the Post, and not shown yet")
    func scheduleIn() async throws {
        try await DaemonFixture.with { fixture in
            let before = Date()
            let id = try await Self.post(Examples.scheduleIn, in: fixture)
            let after = Date()
            let listed = try await Self.pending("Kettle", in: fixture)
            #expect(listed.contains("'id': <'\(id)'>"), "\(listed)")
            #expect(listed.contains("'title': <'Tea is ready'>"), "\(listed)")
            #expect(listed.contains("'in': <240.0>"), "\(listed)")
            // next-fire-date is whole seconds.
            let next = try nextFireDate(in: listed).timeIntervalSince1970
            #expect(
                next >= (before.timeIntervalSince1970 + 240).rounded(.down)
                    && next <= (after.timeIntervalSince1970 + 240).rounded(.up),
                "next fire date \(next), posted between \(before) and \(after)")
            #expect(try await fixture.gdbus("ListDelivered", "{'app-name': <'Kettle'>}").output == "(@aa{sv} [],)")
        }
    }

    @Test("the same Post with 'in': <1.0> reaches the server a second later, and is no longer pending")
    func scheduleInFires() async throws {
        try await DaemonFixture.with { fixture in
            let script = Examples.scheduleIn.script.replacingOccurrences(of: "'in': <240.0>", with: "'in': <1.0>")
            #expect(script != Examples.scheduleIn.script, "the example no longer says 'in': <240.0>")
            let before = Date()
            let result = try await fixture.sh(script)
            #expect(result.status == 0, "\(result.standardError)")
            let shown = try await fixture.nextNotification()
            #expect(Date().timeIntervalSince(before) >= 1, "shown before it was due")
            #expect(shown.summary == "Tea is ready")
            #expect(shown.appName == "Kettle")
            #expect(try await fixture.gdbus("ListPending", "{'app-name': <'Kettle'>}").output == "(@aa{sv} [],)")
        }
    }

    @Test("a wall-clock fire-date with time-zone 'local' is pending at that time in the daemon's zone, monthly")
    func scheduleMonthly() async throws {
        try await DaemonFixture.with { fixture in
            let id = try await Self.post(Examples.scheduleMonthly, in: fixture)
            let listed = try await Self.pending("Bills", in: fixture)
            for part in [
                "'id': <'\(id)'>", "'title': <'Pay the rent'>", "'fire-date': <'2030-01-01T09:00:00'>",
                "'time-zone': <'local'>", "'repeat': <'month'>",
            ] {
                #expect(listed.contains(part), "\(listed)")
            }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone.current
            let expected = try #require(
                calendar.date(from: DateComponents(year: 2030, month: 1, day: 1, hour: 9, minute: 0, second: 0)))
            #expect(try nextFireDate(in: listed) == expected, "\(listed)")
        }
    }

    @Test("the weekday calendar match is pending at the next weekday 09:00 in the daemon's zone; ListPending shows it")
    func scheduleWeekdays() async throws {
        try await DaemonFixture.with { fixture in
            let before = Date()
            let id = try await Self.post(Examples.scheduleWeekdays, in: fixture)
            let after = Date()
            let listed = try await fixture.sh(Examples.listPending.script)
            #expect(listed.status == 0, "\(listed.standardError)")
            for part in [
                "'id': <'\(id)'>", "'title': <'Stand-up'>", "'body': <'Room 4'>",
                "'weekdays': <['monday', 'tuesday', 'wednesday', 'thursday', 'friday']>", "'hour': <9>",
                "'minute': <0>", "'repeat': <true>",
            ] {
                #expect(listed.output.contains(part), "\(listed.output)")
            }
            // The Post's own "now" lies between the two; a 09:00 passing in between allows either answer.
            let expected = [try nextWeekdayNine(after: before), try nextWeekdayNine(after: after)]
            #expect(expected.contains(try nextFireDate(in: listed.output)), "\(listed.output)")
        }
    }

    @Test("ListPending lists an app's scheduled notifications earliest first, and no other app's")
    func listPendingOrder() async throws {
        try await DaemonFixture.with { fixture in
            let later = try await fixture.post([
                PostKeys.title.name: .string("Later"), PostKeys.appName.name: .string("Team"),
                PostKeys.delay.name: .double(30 * 86_400),
            ])
            let weekdays = try await Self.post(Examples.scheduleWeekdays, in: fixture)
            _ = try await Self.post(Examples.scheduleIn, in: fixture)
            let listed = try await fixture.sh(Examples.listPending.script)
            #expect(listed.status == 0, "\(listed.standardError)")
            let ids = listed.output.components(separatedBy: "'id': <'").dropFirst().map { String($0.prefix(16)) }
            #expect(ids == [weekdays, later], "\(listed.output)")
            #expect(!listed.output.contains("Tea is ready"), "\(listed.output)")
        }
    }
}

/// The first `'next-fire-date': <int64 …>` of `gdbus` output, as a date.
private func nextFireDate(in output: String) throws -> Date {
    guard let rest = output.components(separatedBy: "'next-fire-date': <int64 ").dropFirst().first,
        let seconds = Double(rest.prefix { $0.isNumber })
    else { throw TestSupportError("no next-fire-date in \(output)") }
    return Date(timeIntervalSince1970: seconds)
}

/// The first Monday to Friday 09:00:00 strictly after `date`, in this process's zone.
private func nextWeekdayNine(after date: Date) throws -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone.current
    let candidates = (2...6).compactMap { weekday in
        calendar.nextDate(
            after: date, matching: DateComponents(hour: 9, minute: 0, second: 0, weekday: weekday),
            matchingPolicy: .nextTime)
    }
    guard let first = candidates.min() else { throw TestSupportError("no weekday 09:00 after \(date)") }
    return first
}
