/// How many notifications of one app (or one thread of it) are shown within how long: beyond that the daemon folds
/// the excess into one notification that counts them. Written `10/10s`: at most 10 within 10 seconds; or `off`
/// (``off``, the default): no flood control.
public struct FloodLimit: Sendable, Hashable, CustomStringConvertible {
    /// The most notifications shown within ``window``; 0 for ``off``.
    public let count: Int
    /// The span they are counted in.
    public let window: Duration
    /// The window in seconds, for arithmetic on dates.
    public let seconds: Double

    /// What the word for no flood control is, in the settings and on the command line.
    public static let offText = "off"

    /// No flood control: every notification is shown. What an app has until the user sets a limit.
    public static let off = FloodLimit(uncheckedCount: 0, window: .zero)

    /// Whether this is ``off``.
    public var isOff: Bool { count == 0 }

    private init(uncheckedCount: Int, window: Duration) {
        (count, self.window, seconds) = (uncheckedCount, window, 0)
    }

    /// At most `count` notifications shown within `window`.
    ///
    /// - Throws: ``FloodLimitError`` when `count` is under 1 or `window` is not positive.
    public init(count: Int, window: Duration) throws(FloodLimitError) {
        guard count >= 1 else {
            throw FloodLimitError("a flood limit of \(count) would fold every notification; give 1 or more")
        }
        guard window > .zero else {
            throw FloodLimitError("a flood window must be longer than nothing, such as 10s")
        }
        self.count = count
        self.window = window
        seconds = Double(window.components.seconds) + Double(window.components.attoseconds) * 1e-18
    }

    /// Reads `10/10s` (seconds), `30/1m` (minutes) or `off`.
    ///
    /// - Throws: ``FloodLimitError`` saying how to write it.
    public static func parse(_ text: String) throws(FloodLimitError) -> FloodLimit {
        if text == offText { return .off }
        let written = "write the most shown, '/' and the window, such as '10/10s' or '30/1m', or 'off'"
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let count = Int(parts[0]), let unit = parts[1].last,
            let amount = Int(parts[1].dropLast())
        else { throw FloodLimitError("flood limit '\(text)' cannot be read; \(written)") }
        switch unit {
        case "s": return try FloodLimit(count: count, window: .seconds(amount))
        case "m": return try FloodLimit(count: count, window: .seconds(amount * 60))
        default: throw FloodLimitError("flood limit '\(text)' has a window in neither s nor m; \(written)")
        }
    }

    /// `10/10s` or `off`, as ``parse(_:)`` reads it.
    public var description: String {
        if isOff { return Self.offText }
        let whole = window.components.seconds
        return whole % 60 == 0 && whole >= 60 ? "\(count)/\(whole / 60)m" : "\(count)/\(whole)s"
    }

    /// A limit users may start from: at most 10 within 10 seconds.
    public static let suggested = try! FloodLimit(count: 10, window: .seconds(10))
}

/// A flood limit that cannot be: says what was wrong and what to give.
public struct FloodLimitError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong, and what to give instead.
    public let description: String

    init(_ description: String) { self.description = description }
}
