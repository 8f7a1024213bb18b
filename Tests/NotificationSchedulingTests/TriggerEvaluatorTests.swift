import Foundation
import NotificationModel
import Testing

@testable import NotificationScheduling

@Suite("When triggers fire")
struct TriggerEvaluatorTests {
    typealias F = SchedulingFixtures

    // MARK: - Each kind of trigger

    @Test("an absolute instant fires at that instant in every zone, once")
    func instant() {
        let trigger = NotificationTrigger.date(.instant(secondsSince1970: 1_767_254_400.5))
        for zone in [F.berlin, F.newYork, F.tokyo] {
            let evaluator = TriggerEvaluator(timeZone: zone)
            let anchor = F.instant("2025-01-01T00:00:00Z")
            #expect(
                evaluator.nextFireDate(after: anchor, for: trigger, anchor: anchor)?.timeIntervalSince1970
                    == 1_767_254_400.5)
            #expect(
                evaluator.nextFireDate(
                    after: Date(timeIntervalSince1970: 1_767_254_400.5), for: trigger,
                    anchor: anchor) == nil, "a one-shot trigger has nothing after its date")
        }
    }

    @Test("a wall-clock date fires at that time in the evaluator's zone")
    func wallClock() {
        let trigger = NotificationTrigger.date(.wallClock(F.wallClock(2025, 6, 1, 9)))
        let anchor = F.instant("2025-01-01T00:00:00Z")
        #expect(
            TriggerEvaluator(timeZone: F.berlin).firstFireDate(for: trigger, anchor: anchor)
                == F.instant("2025-06-01T09:00:00+02:00"))
        #expect(
            TriggerEvaluator(timeZone: F.newYork).firstFireDate(for: trigger, anchor: anchor)
                == F.instant("2025-06-01T09:00:00-04:00"))
    }

    @Test("a time interval counts from the anchor; a repeating one stays on its grid")
    func timeInterval() {
        let anchor = F.instant("2025-01-01T00:00:00Z")
        let evaluator = TriggerEvaluator(timeZone: F.berlin)
        let once = NotificationTrigger.timeInterval(seconds: 90)
        #expect(evaluator.firstFireDate(for: once, anchor: anchor) == anchor.addingTimeInterval(90))
        #expect(evaluator.nextFireDate(after: anchor.addingTimeInterval(90), for: once, anchor: anchor) == nil)
        let repeating = NotificationTrigger.timeInterval(seconds: 3600, repeats: true)
        #expect(
            evaluator.nextFireDate(after: anchor.addingTimeInterval(3600 * 5 + 1), for: repeating, anchor: anchor)
                == anchor.addingTimeInterval(3600 * 6))
        #expect(
            evaluator.nextFireDate(after: anchor.addingTimeInterval(3600 * 6), for: repeating, anchor: anchor)
                == anchor.addingTimeInterval(3600 * 7), "strictly after")
    }

    @Test("every weekday at 09:00 skips the weekend and keeps 09:00 across the change to summer time")
    func weekdaysAtNine() {
        let trigger = NotificationTrigger.calendar(
            CalendarMatch(weekdays: .mondayToFriday, hour: 9, minute: 0),
            repeats: true)
        let dates = F.occurrences(of: trigger, in: F.berlin, after: F.instant("2025-03-27T10:00:00+01:00"), count: 4)
        #expect(
            dates == [
                F.instant("2025-03-28T09:00:00+01:00"),  // Friday
                F.instant("2025-03-31T09:00:00+02:00"),  // Monday, after the clocks went forward on Sunday
                F.instant("2025-04-01T09:00:00+02:00"),
                F.instant("2025-04-02T09:00:00+02:00"),
            ])
    }

    @Test("unset time fields: coarser ones match anything, finer ones are zero")
    func calendarWildcards() {
        let start = F.instant("2025-05-05T10:40:00Z")
        let utc = TimeZoneRules(identifier: "UTC")!
        let halfPast = NotificationTrigger.calendar(CalendarMatch(minute: 30), repeats: true)
        #expect(
            F.occurrences(of: halfPast, in: utc, after: start, count: 2)
                == [F.instant("2025-05-05T11:30:00Z"), F.instant("2025-05-05T12:30:00Z")])
        let tenSeconds = NotificationTrigger.calendar(CalendarMatch(second: 10), repeats: true)
        #expect(
            F.occurrences(of: tenSeconds, in: utc, after: start, count: 2)
                == [F.instant("2025-05-05T10:40:10Z"), F.instant("2025-05-05T10:41:10Z")])
        let mondays = NotificationTrigger.calendar(CalendarMatch(weekdays: [.monday]), repeats: true)
        #expect(F.occurrences(of: mondays, in: utc, after: start, count: 1) == [F.instant("2025-05-12T00:00:00Z")])
    }

    @Test("calendar fields match literally: the 31st skips short months, 29 February waits for a leap year")
    func calendarLiteral() {
        let utc = TimeZoneRules(identifier: "UTC")!
        let thirtyFirst = NotificationTrigger.calendar(CalendarMatch(day: 31, hour: 8), repeats: true)
        #expect(
            F.occurrences(of: thirtyFirst, in: utc, after: F.instant("2025-01-31T09:00:00Z"), count: 2)
                == [F.instant("2025-03-31T08:00:00Z"), F.instant("2025-05-31T08:00:00Z")])
        let leapDay = NotificationTrigger.calendar(CalendarMatch(month: 2, day: 29), repeats: true)
        #expect(
            F.occurrences(of: leapDay, in: utc, after: F.instant("2025-03-01T00:00:00Z"), count: 2)
                == [F.instant("2028-02-29T00:00:00Z"), F.instant("2032-02-29T00:00:00Z")])
        let leapMonday = NotificationTrigger.calendar(CalendarMatch(month: 2, day: 29, weekdays: [.monday]))
        #expect(
            TriggerEvaluator(timeZone: utc).firstFireDate(for: leapMonday, anchor: F.instant("2025-01-01T00:00:00Z"))
                == F.instant("2044-02-29T00:00:00Z"), "the search spans decades when it must")
    }

    @Test("a one-shot calendar match fires at its first match after scheduling, then never")
    func calendarOnce() {
        let evaluator = TriggerEvaluator(timeZone: F.berlin)
        let anchor = F.instant("2025-05-05T10:00:00+02:00")
        let trigger = NotificationTrigger.calendar(CalendarMatch(hour: 9))
        let first = evaluator.firstFireDate(for: trigger, anchor: anchor)
        #expect(first == F.instant("2025-05-06T09:00:00+02:00"))
        #expect(evaluator.nextFireDate(after: first!, for: trigger, anchor: anchor) == nil)
    }

    // MARK: - Daylight-saving time

    @Test(
        "daily at 09:00 stays at 09:00 wall time across both changes",
        arguments: [
            (
                "Europe/Berlin", "2025-03-29",
                [
                    "2025-03-29T09:00:00+01:00", "2025-03-30T09:00:00+02:00",
                    "2025-03-31T09:00:00+02:00",
                ]
            ),
            (
                "Europe/Berlin", "2025-10-25",
                [
                    "2025-10-25T09:00:00+02:00", "2025-10-26T09:00:00+01:00",
                    "2025-10-27T09:00:00+01:00",
                ]
            ),
            (
                "America/New_York", "2025-03-08",
                [
                    "2025-03-08T09:00:00-05:00", "2025-03-09T09:00:00-04:00",
                    "2025-03-10T09:00:00-04:00",
                ]
            ),
            (
                "America/New_York", "2025-11-01",
                [
                    "2025-11-01T09:00:00-04:00", "2025-11-02T09:00:00-05:00",
                    "2025-11-03T09:00:00-05:00",
                ]
            ),
        ])
    func dailyAcrossDST(zone: String, startDay: String, expected: [String]) {
        let start = LocalDateTime(parsing: startDay + "T09:00:00")!
        let trigger = NotificationTrigger.date(.wallClock(start), repeat: .interval(.day))
        let dates = F.occurrences(of: trigger, in: TimeZoneRules(identifier: zone)!, after: .distantPast, count: 3)
        #expect(dates == expected.map(F.instant))
    }

    @Test(
        "a time in the spring-forward gap fires at the first instant after the gap",
        arguments: [
            ("Europe/Berlin", "2025-03-30T02:30:00", "2025-03-30T03:00:00+02:00"),
            ("Europe/Berlin", "2025-03-30T02:00:00", "2025-03-30T03:00:00+02:00"),
            ("Europe/Berlin", "2025-03-30T02:59:59", "2025-03-30T03:00:00+02:00"),
            ("America/New_York", "2025-03-09T02:30:00", "2025-03-09T03:00:00-04:00"),
        ])
    func springForwardGap(zone: String, wallClock: String, expected: String) {
        let evaluator = TriggerEvaluator(timeZone: TimeZoneRules(identifier: zone)!)
        #expect(evaluator.date(for: LocalDateTime(parsing: wallClock)!) == F.instant(expected))
    }

    @Test(
        "a time shown twice at fall-back resolves to its first occurrence",
        arguments: [
            ("Europe/Berlin", "2025-10-26T02:30:00", "2025-10-26T02:30:00+02:00"),
            ("Europe/Berlin", "2025-10-26T02:00:00", "2025-10-26T02:00:00+02:00"),
            ("America/New_York", "2025-11-02T01:30:00", "2025-11-02T01:30:00-04:00"),
        ])
    func fallBackOverlap(zone: String, wallClock: String, expected: String) {
        let evaluator = TriggerEvaluator(timeZone: TimeZoneRules(identifier: zone)!)
        #expect(evaluator.date(for: LocalDateTime(parsing: wallClock)!) == F.instant(expected))
        // Just outside the overlap, the ordinary answer.
        let after = LocalDateTime(parsing: wallClock)!.adding(.hour, count: 1)
        #expect(evaluator.localDateTime(for: evaluator.date(for: after)) == after)
    }

    @Test("daily at 02:30 moves to 03:00 on the night of the gap and fires once on the night of the overlap")
    func dailyInGapAndOverlap() {
        let gapSeries = NotificationTrigger.date(.wallClock(F.wallClock(2025, 3, 29, 2, 30)), repeat: .interval(.day))
        #expect(
            F.occurrences(of: gapSeries, in: F.berlin, after: .distantPast, count: 3) == [
                F.instant("2025-03-29T02:30:00+01:00"), F.instant("2025-03-30T03:00:00+02:00"),
                F.instant("2025-03-31T02:30:00+02:00"),
            ])
        let overlapSeries = NotificationTrigger.calendar(CalendarMatch(hour: 2, minute: 30), repeats: true)
        #expect(
            F.occurrences(of: overlapSeries, in: F.berlin, after: F.instant("2025-10-25T12:00:00+02:00"), count: 2)
                == [F.instant("2025-10-26T02:30:00+02:00"), F.instant("2025-10-27T02:30:00+01:00")])
    }

    @Test("hourly repeats count elapsed hours, so both 02:30s of the fall-back night fire")
    func hourlyIsElapsed() {
        let trigger = NotificationTrigger.date(.wallClock(F.wallClock(2025, 10, 26, 1, 30)), repeat: .interval(.hour))
        #expect(
            F.occurrences(of: trigger, in: F.berlin, after: .distantPast, count: 4) == [
                F.instant("2025-10-26T01:30:00+02:00"), F.instant("2025-10-26T02:30:00+02:00"),
                F.instant("2025-10-26T02:30:00+01:00"), F.instant("2025-10-26T03:30:00+01:00"),
            ])
    }

    // MARK: - Month ends and leap days

    @Test("monthly on the 31st fires on the last day of shorter months and returns to the 31st")
    func monthlyOnThe31st() {
        let trigger = NotificationTrigger.date(.wallClock(F.wallClock(2025, 1, 31, 9)), repeat: .interval(.month))
        let dates = F.occurrences(of: trigger, in: F.berlin, after: .distantPast, count: 5)
        #expect(
            dates == [
                F.instant("2025-01-31T09:00:00+01:00"), F.instant("2025-02-28T09:00:00+01:00"),
                F.instant("2025-03-31T09:00:00+02:00"), F.instant("2025-04-30T09:00:00+02:00"),
                F.instant("2025-05-31T09:00:00+02:00"),
            ])
    }

    @Test("yearly on 29 February fires on 28 February in common years")
    func yearlyOnLeapDay() {
        let trigger = NotificationTrigger.date(.wallClock(F.wallClock(2024, 2, 29, 12)), repeat: .interval(.year))
        let dates = F.occurrences(of: trigger, in: F.newYork, after: .distantPast, count: 5)
        #expect(
            dates
                == ["2024-02-29", "2025-02-28", "2026-02-28", "2027-02-28", "2028-02-29"].map {
                    F.instant($0 + "T12:00:00-05:00")
                })
    }

    @Test("a far-off query jumps straight to the right occurrence")
    func farQuery() {
        let trigger = NotificationTrigger.date(.wallClock(F.wallClock(2000, 1, 31, 9)), repeat: .interval(.month))
        let evaluator = TriggerEvaluator(timeZone: F.berlin)
        #expect(
            evaluator.nextFireDate(after: F.instant("2025-02-10T00:00:00Z"), for: trigger, anchor: .distantPast)
                == F.instant("2025-02-28T09:00:00+01:00"))
    }

    @Test("repeats of an absolute instant are counted in UTC, whatever the zone")
    func instantRepeats() {
        let daily = NotificationTrigger.date(
            .instant(
                secondsSince1970: F.instant("2025-03-29T08:00:00Z")
                    .timeIntervalSince1970), repeat: .interval(.day))
        #expect(
            F.occurrences(of: daily, in: F.berlin, after: .distantPast, count: 3) == [
                F.instant("2025-03-29T08:00:00Z"), F.instant("2025-03-30T08:00:00Z"), F.instant("2025-03-31T08:00:00Z"),
            ], "24 hours apart, through Berlin's change to summer time")
        let monthly = NotificationTrigger.date(
            .instant(
                secondsSince1970: F.instant("2025-01-31T23:30:00Z")
                    .timeIntervalSince1970), repeat: .interval(.month))
        #expect(
            F.occurrences(of: monthly, in: F.tokyo, after: .distantPast, count: 2)
                == [F.instant("2025-01-31T23:30:00Z"), F.instant("2025-02-28T23:30:00Z")])
    }

    // MARK: - Time-zone changes

    @Test("a zone change moves wall-clock dates and leaves absolute ones")
    func zoneChange() {
        let local = NotificationTrigger.date(.wallClock(F.wallClock(2025, 6, 1, 9)))
        let absolute = NotificationTrigger.date(
            .instant(
                secondsSince1970: F.instant("2025-06-01T07:00:00Z")
                    .timeIntervalSince1970))
        let anchor = F.instant("2025-05-01T00:00:00Z")
        let inBerlin = TriggerEvaluator(timeZone: F.berlin)
        let inNewYork = TriggerEvaluator(timeZone: F.newYork)
        #expect(inBerlin.firstFireDate(for: local, anchor: anchor) == F.instant("2025-06-01T07:00:00Z"))
        #expect(inNewYork.firstFireDate(for: local, anchor: anchor) == F.instant("2025-06-01T13:00:00Z"))
        #expect(
            inBerlin.firstFireDate(for: absolute, anchor: anchor)
                == inNewYork.firstFireDate(
                    for: absolute,
                    anchor: anchor))
    }

    @Test("rebasing keeps the wall-clock time across zones")
    func rebase() {
        let nineInBerlin = F.instant("2025-06-01T09:00:00+02:00")
        #expect(
            TriggerEvaluator(timeZone: F.newYork).rebased(nineInBerlin, from: F.berlin)
                == F.instant("2025-06-01T09:00:00-04:00"))
        #expect(TriggerEvaluator(timeZone: F.berlin).rebased(nineInBerlin, from: F.berlin) == nineInBerlin)
    }

    // MARK: - Missed fires

    @Test("a one-shot notification missed during downtime is due once, and then finished")
    func missedOnce() {
        let evaluator = TriggerEvaluator(timeZone: F.berlin)
        let trigger = NotificationTrigger.date(.wallClock(F.wallClock(2025, 6, 1, 9)))
        let missed = evaluator.missedFire(
            for: trigger, anchor: F.instant("2025-05-01T00:00:00Z"), lastFired: nil,
            now: F.instant("2025-06-03T12:00:00Z"))
        #expect(missed == MissedFire(missedOccurrence: F.instant("2025-06-01T09:00:00+02:00"), nextFireDate: nil))
    }

    @Test("a repeating notification missed for days is due once and continues after now")
    func missedRepeating() {
        let evaluator = TriggerEvaluator(timeZone: F.berlin)
        let trigger = NotificationTrigger.date(.wallClock(F.wallClock(2025, 6, 1, 9)), repeat: .interval(.day))
        let missed = evaluator.missedFire(
            for: trigger, anchor: F.instant("2025-05-01T00:00:00Z"),
            lastFired: F.instant("2025-06-02T09:00:00+02:00"), now: F.instant("2025-06-05T12:00:00+02:00"))
        #expect(missed.missedOccurrence == F.instant("2025-06-03T09:00:00+02:00"), "the first undelivered one")
        #expect(missed.nextFireDate == F.instant("2025-06-06T09:00:00+02:00"))
        let notYet = evaluator.missedFire(
            for: trigger, anchor: F.instant("2025-05-01T00:00:00Z"),
            lastFired: F.instant("2025-06-05T09:00:00+02:00"), now: F.instant("2025-06-05T12:00:00+02:00"))
        #expect(notYet == MissedFire(missedOccurrence: nil, nextFireDate: F.instant("2025-06-06T09:00:00+02:00")))
    }

    @Test("an invalid trigger never fires")
    func invalid() {
        let evaluator = TriggerEvaluator(timeZone: F.berlin)
        let triggers: [NotificationTrigger] = [
            .calendar(CalendarMatch(weekdays: [])), .date(.wallClock(F.wallClock(2025, 2, 30))),
            .timeInterval(seconds: .nan),
        ]
        for trigger in triggers {
            #expect(evaluator.firstFireDate(for: trigger, anchor: Date()) == nil, "\(trigger)")
        }
    }
}
