import DBusCore

/// The keys of the desktop's do-not-disturb as the daemon reports it: the `DesktopDoNotDisturb` property and the
/// `DesktopDoNotDisturbChanged` signal. ``DesktopDoNotDisturbState`` reads and writes them.
public enum DoNotDisturbKeys {
    /// `is-on` (b).
    public static let isOn = BridgeKey.boolean(
        "is-on", summary: "the desktop's do-not-disturb is on: notifications that do not pass it wait")
    /// `source` (s).
    public static let source = BridgeKey.string(
        "source", example: "<'dunst'>",
        summary: "whose switch it is: gnome, plasma, dunst, mako, swaync; empty when the desktop has none the bridge "
            + "can read")

    /// Every key.
    public static let all: [BridgeKeyInfo] = [isOn.info, source.info]
}

/// The desktop's do-not-disturb as the daemon reports it to apps.
public struct DesktopDoNotDisturbState: Sendable, Hashable {
    /// Whether the switch is on.
    public var isOn: Bool
    /// Whose switch it is (`gnome`, `plasma`, `dunst`, `mako`, `swaync`); empty when none can be read.
    public var source: String

    /// Makes a state.
    public init(isOn: Bool, source: String) {
        self.isOn = isOn
        self.source = source
    }

    /// Reads the dictionary of the property or the signal; a key that is missing reads as off, or no source.
    public init?(_ value: DBusValue) {
        guard let entries = WireEntries(value) else { return nil }
        isOn = entries[DoNotDisturbKeys.isOn] ?? false
        source = entries[DoNotDisturbKeys.source] ?? ""
    }

    /// The dictionary the daemon sends.
    public var value: DBusValue {
        var entries = WireEntries()
        entries[DoNotDisturbKeys.isOn] = isOn
        entries[DoNotDisturbKeys.source] = source
        return entries.value
    }
}
