import NotificationModel
import Testing

@Suite("Coding of triggers")
struct TriggerCodingTests {
    static let newYear = LocalDateTime(year: 2026, month: 1, day: 1, hour: 9)

    static let triggers: [NotificationTrigger] = [
        .date(.instant(secondsSince1970: 1_767_254_400)),
        .date(.instant(secondsSince1970: 1_767_254_400.25), repeat: .interval(.hour)),
        .date(.wallClock(newYear), repeat: .interval(.month)),
        .timeInterval(seconds: 90),
        .timeInterval(seconds: 3600, repeats: true),
        .calendar(CalendarMatch(weekdays: .mondayToFriday, hour: 9, minute: 0), repeats: true),
        .calendar(CalendarMatch(month: 2, day: 29)),
    ]

    @Test("every kind of trigger survives an encode-decode round trip", arguments: triggers)
    func roundTrips(trigger: NotificationTrigger) throws {
        #expect(try roundTrip(trigger) == trigger)
    }

    @Test("a wall-clock date repeating monthly is written in its documented shape")
    func dateShape() throws {
        let json = try encodedJSON(NotificationTrigger.date(.wallClock(Self.newYear), repeat: .interval(.month)))
        #expect(json == ["kind": "date", "fire-date": ["wall-clock": "2026-01-01T09:00:00"], "repeat": "month"])
        let once = try encodedJSON(NotificationTrigger.date(.instant(secondsSince1970: 1_767_254_400)))
        #expect(
            once == ["kind": "date", "fire-date": ["instant": 1_767_254_400]], "no repeat key when it does not repeat")
    }

    @Test("time-interval and calendar triggers are written in their documented shapes")
    func otherShapes() throws {
        #expect(
            try encodedJSON(NotificationTrigger.timeInterval(seconds: 90))
                == ["kind": "time-interval", "seconds": 90, "repeats": false]
        )
        let calendar = NotificationTrigger.calendar(
            CalendarMatch(weekdays: [.friday, .monday], hour: 9, minute: 0),
            repeats: true
        )
        #expect(
            try encodedJSON(calendar)
                == [
                    "kind": "calendar", "match": ["weekdays": ["monday", "friday"], "hour": 9, "minute": 0],
                    "repeats": true,
                ],
            "weekdays are names, Sunday first, and unset fields are left out"
        )
    }

    @Test("the same trigger always encodes to the same text")
    func stableText() throws {
        let trigger = NotificationTrigger.calendar(CalendarMatch(weekdays: .mondayToFriday, hour: 9), repeats: true)
        let texts = try (0..<20).map { _ in try encodedJSON(trigger).jsonText }
        #expect(Set(texts).count == 1)
    }

    @Test("weekdays decode from Foundation's numbers as well as names")
    func weekdayNumbers() throws {
        let match = try decode(CalendarMatch.self, from: #"{"weekdays": [1, "monday", 7], "hour": 9}"#)
        #expect(match == CalendarMatch(weekdays: [.sunday, .monday, .saturday], hour: 9))
    }

    @Test("repeats may be left out and means false")
    func repeatsDefault() throws {
        #expect(
            try decode(NotificationTrigger.self, from: #"{"kind": "time-interval", "seconds": 5}"#)
                == .timeInterval(seconds: 5, repeats: false)
        )
    }

    static let rejectedCases: [(json: String, mentions: String)] = [
        (#"{"kind": "sometimes"}"#, "time-interval"),
        (#"{"kind": "date", "fire-date": {}}"#, "wall-clock"),
        (#"{"kind": "date", "fire-date": {"instant": 1, "wall-clock": "2026-01-01T09:00:00"}}"#, "exactly one"),
        (#"{"kind": "date", "fire-date": {"wall-clock": "2026-01-01 09:00"}}"#, "YYYY-MM-DDTHH:MM:SS"),
        (#"{"kind": "date", "fire-date": {"wall-clock": "2026-01-01T09:00:00Z"}}"#, "no time zone"),
        (#"{"kind": "date", "fire-date": {"instant": 1}, "repeat": "fortnight"}"#, "\"week\""),
        (#"{"kind": "calendar", "match": {"weekdays": ["mon"]}}"#, "\"sunday\" … \"saturday\""),
        (#"{"kind": "calendar", "match": {"weekdays": [8]}}"#, "1 (Sunday) to 7 (Saturday)"),
    ]

    @Test("malformed triggers are rejected with a message that says what to write", arguments: rejectedCases)
    func rejects(json: String, mentions: String) {
        do {
            _ = try decode(NotificationTrigger.self, from: json)
            Issue.record("\(json) should not decode")
        } catch {
            #expect("\(error)".contains(mentions), "\(error)")
        }
    }
}
