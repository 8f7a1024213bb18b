import FoundationEssentials
import NotificationModel

/// Wall-clock time to instant, in whole seconds, with the gap and overlap rules of ``TriggerEvaluator``.
extension TriggerEvaluator {
    /// How far from a wall-clock time the zone's offsets are sampled: more than the largest UTC offset, so that
    /// every instant that could show the time lies within the window.
    private static let offsetWindow = 15 * 3600

    /// The zone's offset from UTC, in seconds, at an instant.
    func offset(at seconds: Int) -> Int {
        timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds)))
    }

    /// The instant, in whole seconds since 1970, that `time` names in the zone.
    ///
    /// Each offset in effect around the time gives one candidate instant, which is real when the zone has that
    /// offset at that instant. Several real candidates mean a fall-back overlap: take the first. None means a
    /// spring-forward gap: take the transition, the first instant after the gap.
    func resolve(_ time: LocalDateTime) -> Int {
        let wall = time.secondsSince1970InUTC
        let offsets = Set([wall - Self.offsetWindow, wall, wall + Self.offsetWindow].map(offset(at:)))
        let real = offsets.map { wall - $0 }.filter { wall - offset(at: $0) == $0 }
        if let first = real.min() { return first }
        // In the gap: the instant read with the larger offset lies before the transition, the one read with the
        // smaller offset after it. Find the first second with the later offset.
        var before = wall - offsets.max()!
        var after = wall - offsets.min()!
        let earlierOffset = offset(at: before)
        guard earlierOffset != offset(at: after) else { return wall - offset(at: wall) }
        while after - before > 1 {
            let middle = before + (after - before) / 2
            if offset(at: middle) == earlierOffset { before = middle } else { after = middle }
        }
        return after
    }
}

/// The occurrences of each kind of trigger.
extension TriggerEvaluator {
    /// The first occurrence after `date` of a date trigger that repeats.
    func seriesOccurrence(after date: Date, start: FireDate, interval: RepeatRule.Interval) -> Date? {
        // An instant repeats on the UTC calendar; a wall-clock time on the user's.
        let (zone, first, fraction): (TriggerEvaluator, LocalDateTime, Double)
        switch start {
        case .instant(let seconds):
            let utc = TriggerEvaluator(timeZone: .utc)
            let whole = seconds.rounded(.down)
            (zone, first, fraction) = (utc, LocalDateTime(secondsSince1970InUTC: Int(whole)), seconds - whole)
        case .wallClock(let time):
            (zone, first, fraction) = (self, time, 0)
        }
        let firstInstant = Double(zone.resolve(first)) + fraction
        guard firstInstant <= date.timeIntervalSince1970 else { return Date(timeIntervalSince1970: firstInstant) }

        if let period = interval.elapsedSeconds.map(Double.init) {
            let periods = ((date.timeIntervalSince1970 - firstInstant) / period).rounded(.down) + 1
            var next = firstInstant + periods * period
            while next <= date.timeIntervalSince1970 { next += period }
            return Date(timeIntervalSince1970: next)
        }

        // Estimate the count of intervals from the wall-clock distance, start one short of it (a daylight-saving
        // offset can put an occurrence on either side of `date`), and step forward.
        let now = zone.localDateTime(for: date)
        let days = (now.secondsSince1970InUTC - first.secondsSince1970InUTC) / 86_400
        let months = (now.year - first.year) * 12 + now.month - first.month
        let estimate: Int
        switch interval {
        case .day: estimate = days
        case .week: estimate = days / 7
        case .month: estimate = months
        case .year: estimate = months / 12
        case .minute, .hour: return nil  // handled above
        }
        var count = max(0, estimate - 1)
        while true {
            let occurrence = first.adding(interval, count: count)
            guard occurrence.year <= 9999 else { return nil }
            let instant = Double(zone.resolve(occurrence)) + fraction
            if instant > date.timeIntervalSince1970 { return Date(timeIntervalSince1970: instant) }
            count += 1
        }
    }

    /// The first occurrence after `date` of a time-interval trigger scheduled at `anchor`.
    func intervalOccurrence(after date: Date, anchor: Date, seconds: Double, repeats: Bool) -> Date? {
        let first = anchor.addingTimeInterval(seconds)
        guard first <= date else { return first }
        guard repeats else { return nil }
        let periods = (date.timeIntervalSince(anchor) / seconds).rounded(.down) + 1
        var next = anchor.timeIntervalSince1970 + periods * seconds
        while next <= date.timeIntervalSince1970 { next += seconds }
        return Date(timeIntervalSince1970: next)
    }

    /// The first wall-clock time strictly after `date` that `match` matches, as an instant.
    ///
    /// Walks forward day by day from the local date of `date`, and within a matching day through the matching times
    /// of day. Resolution is monotonic (later wall-clock times never give earlier instants), so the first
    /// candidate that resolves after `date` is the answer. A match that occurs at all occurs within 400 years (the
    /// Gregorian cycle), which bounds the walk.
    func firstMatch(of match: CalendarMatch, after date: Date) -> Date? {
        let start = localDateTime(for: date)
        let startDay = CivilDay(start)
        var fromSecond: Int? = start.secondsSince1970InUTC - startDay.firstSecond
        for dayOffset in 0...(400 * 366) {
            let day = startDay.advanced(by: dayOffset)
            guard day.date.year <= 9999 else { return nil }
            defer { fromSecond = nil }
            guard match.matchesDate(month: day.date.month, day: day.date.day, weekday: day.date.weekday) else {
                continue
            }
            var from = fromSecond ?? 0
            while let secondOfDay = match.firstTimeOfDay(atOrAfter: from) {
                let instant = resolve(LocalDateTime(secondsSince1970InUTC: day.firstSecond + secondOfDay))
                if Double(instant) > date.timeIntervalSince1970 {
                    return Date(timeIntervalSince1970: Double(instant))
                }
                from = secondOfDay + 1
            }
        }
        return nil
    }
}

/// A calendar day, as the wall-clock midnight that starts it.
private struct CivilDay {
    /// Midnight, in wall-clock seconds since 1970.
    let firstSecond: Int
    /// The date at midnight.
    let date: LocalDateTime

    init(_ time: LocalDateTime) {
        self.init(firstSecond: time.secondsSince1970InUTC - (time.hour * 3600 + time.minute * 60 + time.second))
    }

    private init(firstSecond: Int) {
        self.firstSecond = firstSecond
        self.date = LocalDateTime(secondsSince1970InUTC: firstSecond)
    }

    func advanced(by days: Int) -> CivilDay {
        CivilDay(firstSecond: firstSecond + days * 86_400)
    }
}
