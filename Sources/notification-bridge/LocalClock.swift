import ArgumentParser
import NotificationModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The user's time zone as the C library knows it (`TZ`, `/etc/localtime`): the CLI has no Foundation.
enum LocalClock {
    /// The instant a wall-clock time names in the current zone (the first one after a fall-back, the instant after
    /// the gap in a spring-forward).
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
        return Int64(seconds)
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
