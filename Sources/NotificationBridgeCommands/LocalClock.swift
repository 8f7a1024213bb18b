import ArgumentParser
import NotificationModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The user's time zone as the C library knows it (`TZ`, `/etc/localtime`): the CLI has no Foundation.
enum LocalClock {
    /// The instant a wall-clock time names in the current zone (the first one after a fall-back; in a spring-forward
    /// gap, the first instant after the gap, as the daemon resolves a wall-clock time).
    ///
    /// - Parameter time: a valid wall-clock time (``LocalDateTime/validate(at:)``).
    static func instant(of time: LocalDateTime) throws -> Int64 {
        var parts = tm()
        parts.tm_year = Int32(time.year - 1900)
        parts.tm_mon = Int32(time.month - 1)
        parts.tm_mday = Int32(time.day)
        parts.tm_hour = Int32(time.hour)
        parts.tm_min = Int32(time.minute)
        parts.tm_sec = Int32(time.second)
        parts.tm_isdst = -1
        let seconds = mktime(&parts)
        guard seconds != -1 else { throw ValidationError("--at \(time): not a time the local clock can show") }
        // mktime moves a time the clock skips on by the gap's length (02:30 to 03:30); the transition is the earliest
        // instant whose wall-clock time is later than the one asked for, within the day before.
        guard let shown = wallClock(Int64(seconds)), shown > time else { return Int64(seconds) }
        var (before, after) = (Int64(seconds) - 86_400, Int64(seconds))
        while after - before > 1 {
            let middle = before + (after - before) / 2
            if let clock = wallClock(middle), clock > time { after = middle } else { before = middle }
        }
        return after
    }

    /// The next instant, after now, at which the current zone's wall clock shows `hour`:`minute`:`second`: today, or
    /// tomorrow when that time has passed today.
    static func next(hour: Int, minute: Int, second: Int) throws -> Int64 {
        let now = Int64(time(nil))
        for dayAhead in [0, 1, 2] {
            guard let day = wallClock(now + Int64(dayAhead) * 86_400) else { break }
            let wanted = LocalDateTime(
                year: day.year, month: day.month, day: day.day, hour: hour, minute: minute, second: second)
            let instant = try instant(of: wanted)
            if instant > now { return instant }
        }
        throw ValidationError("the local clock cannot say when it next shows \(hour):\(minute); give --for instead")
    }

    /// The wall-clock time the current zone shows at `seconds` since 1970.
    private static func wallClock(_ seconds: Int64) -> LocalDateTime? {
        var instant = time_t(seconds)
        var parts = tm()
        guard localtime_r(&instant, &parts) != nil else { return nil }
        return LocalDateTime(
            year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
            hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec))
    }

    /// `YYYY-MM-DD HH:MM:SS ZONE` in the current zone, for people.
    static func text(secondsSince1970 seconds: Int64) -> String {
        var time = time_t(seconds)
        var parts = tm()
        guard localtime_r(&time, &parts) != nil else { return "\(seconds)" }
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%d %H:%M:%S %Z", &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
