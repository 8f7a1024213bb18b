#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Instants written as ISO 8601 text, without Foundation (which the command line does not load).
public enum ISO8601Text {
    /// `seconds` since 1970 as a UTC date and time, e.g. `2030-12-24T17:00:00Z`.
    public static func utc(seconds: Int64) -> String {
        var time = time_t(seconds)
        var parts = tm()
        guard gmtime_r(&time, &parts) != nil else { return String(seconds) }
        return "\(digits(Int(parts.tm_year) + 1900, 4))-\(digits(Int(parts.tm_mon) + 1, 2))-"
            + "\(digits(Int(parts.tm_mday), 2))T\(digits(Int(parts.tm_hour), 2)):\(digits(Int(parts.tm_min), 2)):"
            + "\(digits(Int(parts.tm_sec), 2))Z"
    }

    /// `number` with leading zeros up to `width` digits.
    private static func digits(_ number: Int, _ width: Int) -> String {
        let text = String(number)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
