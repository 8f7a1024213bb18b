import ArgumentParser
import DBusCore
import NotificationBridgeAPI
import NotificationModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `send`'s scheduling options: when the notification fires instead of now. They map one to one onto the scheduling
/// keys of `Post` (`fire-date`, `time-zone`, `in`, `repeat`, `calendar`), which `--dry-run` shows.
struct ScheduleOptions: ParsableArguments {
    static let discussion = """
        SCHEDULING: with --at, --in, --every or --next it is shown later, not now. \
        The daemon keeps it across restarts; list --pending shows when it fires \
        next; withdraw ID cancels it.
          --at 2026-12-24T18:00         your wall clock; follows your time zone
          --at 2026-12-24T18:00Z        an instant (or +02:00, or seconds since 1970)
          --at … --time-zone fixed      a wall-clock time read once, as an instant
          --in 90s, 15m, 2h, 1d, 1h30m  after a delay (a plain number: seconds)
          --repeat day                  repeats --at or --in (minute … year)
          --every 'mon-fri 09:00'       at every match of a calendar spec
          --next 'fri 17:00'            once, at the next match
        A calendar spec is days, then a time. Days: names (mon … sun), ranges \
        (mon-fri), lists (sat,sun), 'day N' (the Nth of each month) or a month \
        and a day ('dec 24'); none means every day. Time: HH:MM or HH:MM:SS; \
        ':MM' alone means every hour at that minute. Examples: '09:00', \
        'sat,sun 10:30', 'day 1 08:00', 'dec 24 18:00', ':15'.
        """

    @Option(
        help: ArgumentHelp(
            "When it fires: YYYY-MM-DDTHH:MM[:SS] (wall clock), with Z or ±HH:MM (an instant), or seconds since 1970.",
            valueName: "date-time"))
    var at: String?

    // Unconditional, so that a negative delay is read as one and refused for what it is.
    @Option(
        name: .customLong("in"), parsing: .unconditional,
        help: ArgumentHelp(
            "Fires after this delay: 90s, 15m, 2h, 1d, 1h30m (a plain number is seconds).",
            valueName: "duration"))
    var delay: String?

    @Option(
        name: .customLong("repeat"),
        help: ArgumentHelp("Repeats --at or --in, counted from the first time.", valueName: "interval"))
    var repeatInterval: RepeatRule.Interval?

    @Option(
        help: ArgumentHelp(
            "How --at is read: local (floating: the wall-clock time follows your zone) or fixed (an instant).",
            valueName: "zone"))
    var timeZone: ZoneChoice?

    @Option(help: ArgumentHelp("Fires at every match of a calendar spec, e.g. 'mon-fri 09:00'.", valueName: "spec"))
    var every: String?

    @Option(
        help: ArgumentHelp("Fires once, at the next match of a calendar spec, e.g. 'fri 17:00'.", valueName: "spec"))
    var next: String?

    /// How `--at` without an offset is read.
    enum ZoneChoice: String, CaseIterable, ExpressibleByArgument {
        case local, floating, fixed
    }

    var isScheduled: Bool { at != nil || delay != nil || every != nil || next != nil }

    func validate() throws {
        let given = [("--at", at), ("--in", delay), ("--every", every), ("--next", next)].filter { $0.1 != nil }
        if given.count > 1 {
            throw ValidationError(
                given.map(\.0).joined(separator: " and ") + " both given; a notification fires first at one time, "
                    + "keep one of them")
        }
        if repeatInterval != nil, every != nil || next != nil {
            throw ValidationError(
                "--repeat goes with --at or --in; --every repeats by itself, --next fires once")
        }
        if repeatInterval != nil, !isScheduled {
            throw ValidationError("--repeat needs --at or --in to say when it fires first, e.g. --in 1h --repeat hour")
        }
        if timeZone != nil, at == nil {
            throw ValidationError(
                "--time-zone goes with --at (a calendar spec always follows your zone; --in counts elapsed time)")
        }
        _ = try entries()
    }

    /// The warning for an `--at` in the past (without `--repeat`): the daemon shows such a notification at once,
    /// which the user should hear of rather than find out.
    func pastWarning() throws -> String? {
        guard let at, repeatInterval == nil, let seconds = try Self.instantSeconds(at, zone: timeZone),
            seconds <= Int64(time(nil))
        else { return nil }
        return "notification-bridge: warning: --at '\(at)' is in the past (it is "
            + "\(LocalClock.text(secondsSince1970: Int64(time(nil)))) now), so it is shown now; give a later time to "
            + "schedule it"
    }

    /// The instant `--at` names, in seconds since 1970, for the check that it is not past.
    private static func instantSeconds(_ text: String, zone: ZoneChoice?) throws -> Int64? {
        switch try fireDate(text, zone: zone) {
        case .date(.instant(let seconds), _), .wallClockOfInstant(let seconds, _): return Int64(seconds)
        case .date(.wallClock(let time), _): return try LocalClock.instant(of: time)
        default: return nil
        }
    }

    /// The scheduling keys of `Post`; empty when it is shown now.
    func entries() throws -> WireEntries {
        var schedule: PostSchedule?
        if let at { schedule = try Self.fireDate(at, zone: timeZone, repeat: repeatInterval) }
        if let delay { schedule = .delay(seconds: try Self.seconds(delay), repeat: repeatInterval) }
        if let every { schedule = .calendar(try CalendarSpec(parsing: every, option: "--every").match, repeats: true) }
        if let next { schedule = .calendar(try CalendarSpec(parsing: next, option: "--next").match) }
        return schedule?.entries ?? WireEntries()
    }

    // MARK: --at

    private static let atForms =
        "use YYYY-MM-DDTHH:MM[:SS] (your wall clock), add Z or +HH:MM for an instant, or give seconds since 1970"

    /// `fire-date` (and `time-zone`) for `--at`.
    ///
    /// - Parameter zone: `--time-zone`; without it, a date-time without offset is a wall-clock time and seconds are an
    ///   instant.
    static func fireDate(_ text: String, zone: ZoneChoice?, repeat interval: RepeatRule.Interval? = nil) throws
        -> PostSchedule
    {
        // With local: the instant's wall-clock time in your zone, which then follows the zone.
        func instant(_ seconds: Int64) -> PostSchedule {
            zone == .local || zone == .floating
                ? .wallClockOfInstant(secondsSince1970: Double(seconds), repeat: interval)
                : .date(.instant(secondsSince1970: Double(seconds)), repeat: interval)
        }
        if let seconds = Int64(text) {
            guard seconds > 0 else { throw ValidationError("--at \(text): \(atForms)") }
            return instant(seconds)
        }
        var body = Substring(text)
        var offset: Int?
        if body.hasSuffix("Z") || body.hasSuffix("z") {
            offset = 0
            body = body.dropLast()
        } else if body.count > 6, let sign = body.dropLast(5).last, sign == "+" || sign == "-",
            body.suffix(5).dropFirst(2).first == ":",
            let hours = Int(body.suffix(5).prefix(2)), let minutes = Int(body.suffix(2)), hours < 24, minutes < 60
        {
            offset = (sign == "+" ? 1 : -1) * (hours * 3600 + minutes * 60)
            body = body.dropLast(6)
        }
        let full = body.count == 16 ? body + ":00" : body
        guard let time = LocalDateTime(parsing: String(full)) else {
            throw ValidationError("--at '\(text)' is not a date-time; \(atForms)")
        }
        // Checked here, since an offset or --time-zone fixed turns it into seconds the daemon cannot check.
        do {
            try time.validate(at: "date")
        } catch {
            throw ValidationError("--at '\(text)': \(error)")
        }
        if let offset { return instant(Int64(time.secondsSince1970InUTC - offset)) }
        switch zone ?? .local {
        case .local, .floating:
            return .date(.wallClock(time), repeat: interval)
        case .fixed:
            return .date(.instant(secondsSince1970: Double(try LocalClock.instant(of: time))), repeat: interval)
        }
    }

    // MARK: --in

    /// Seconds in a duration such as `90s`, `15m`, `2h`, `1d`, `1h30m` or `45`.
    static func seconds(_ text: String) throws -> Double {
        let problem = "--in '\(text)' is not a duration; use a number with s, m, h or d, e.g. 90s, 15m, 2h, 1d, 1h30m"
        if text.hasPrefix("-") {
            throw ValidationError(
                "--in '\(text)' is in the past; give a delay from now, e.g. --in 5m (to show it "
                    + "now, leave --in out)")
        }
        if let plain = Double(text), plain == 0 {
            throw ValidationError(
                "--in '\(text)' is no delay; to show it now leave --in out, or give a delay such as "
                    + "90s")
        }
        if let plain = Double(text) {
            guard plain > 0, plain.isFinite else { throw ValidationError(problem) }
            return plain
        }
        var total = 0.0
        var number = ""
        for character in text {
            if character.isNumber || character == "." {
                number.append(character)
                continue
            }
            let unit: Double
            switch character {
            case "s": unit = 1
            case "m": unit = 60
            case "h": unit = 3600
            case "d": unit = 86_400
            default: throw ValidationError(problem)
            }
            guard let value = Double(number) else { throw ValidationError(problem) }
            total += value * unit
            number = ""
        }
        guard number.isEmpty else { throw ValidationError(problem) }
        guard total > 0 else {
            throw ValidationError(
                "--in '\(text)' is no delay; to show it now leave --in out, or give a delay such as "
                    + "90s")
        }
        return total
    }
}

extension RepeatRule.Interval: ExpressibleByArgument {}
