import DBusCore

/// The keys of the focus mode that is on, as the daemon reports it in the `ActiveFocus` property.
/// ``ActiveFocusState`` reads and writes them.
public enum FocusKeys {
    /// `mode-name` (s).
    public static let name = BridgeKey.string(
        "mode-name", example: "<'sleep'>", summary: "the focus mode that is on; empty when none is")
    /// `cause` (s).
    public static let cause = BridgeKey.string(
        "cause", example: "<'manual'>",
        summary: "why it is on: manual (turned on by hand) or scheduled (one of its schedules); empty when none is")
    /// `ends-at` (x).
    public static let until = BridgeKey.int64(
        "ends-at", summary: "when it ends by itself, in seconds since 1970 UTC; absent while it is on until turned off")

    /// Every key.
    public static let all: [BridgeKeyInfo] = [name.info, cause.info, until.info]
}

/// The focus mode that is on, as the daemon reports it to apps: sandboxed ones read it too, as an iOS app reads
/// whether the user's Focus is on, though not what it lets through.
public struct ActiveFocusState: Sendable, Hashable {
    /// The mode's name; empty when no mode is on.
    public var name: String
    /// Why it is on: `manual` or `scheduled`; empty when no mode is on.
    public var cause: String
    /// When it ends by itself, in seconds since 1970 UTC; `nil` while it is on until turned off, or none is on.
    public var until: Int64?

    /// Makes a state.
    public init(name: String, cause: String, until: Int64?) {
        self.name = name
        self.cause = cause
        self.until = until
    }

    /// No mode on.
    public static let none = ActiveFocusState(name: "", cause: "", until: nil)

    /// Reads the dictionary of the property; a key that is missing reads as empty, or no end.
    public init?(_ value: DBusValue) {
        guard let entries = WireEntries(value) else { return nil }
        name = entries[FocusKeys.name] ?? ""
        cause = entries[FocusKeys.cause] ?? ""
        until = entries[FocusKeys.until]
    }

    /// The dictionary the daemon sends.
    public var value: DBusValue {
        var entries = WireEntries()
        entries[FocusKeys.name] = name
        entries[FocusKeys.cause] = cause
        entries[FocusKeys.until] = until
        return entries.value
    }
}
