/// How much a notification may interrupt the user: the counterpart of iOS's `UNNotificationInterruptionLevel`.
///
/// The level says what a notification does on arrival and whether it gets through a do-not-disturb:
///
/// | level | on arrival | the bridge's do-not-disturb | the desktop's do-not-disturb |
/// |---|---|---|---|
/// | ``passive`` | no sound; kept quietly in the server's list where the server can, else shown briefly | waits | waits |
/// | ``active`` | as the app asked (the default) | waits | waits |
/// | ``timeSensitive`` | as ``active`` | passes when the user allows it for the app | passes when the user allows it for the app |
/// | ``critical`` | urgency critical, sound even when the app's sounds are off, stays until acted on | passes | passes |
///
/// Critical is the user's to give: an app may post at that level only where the user allows it
/// (``AppNotificationSettings/allowsCritical(fromSandbox:)``: host programs by default, sandboxed apps once the user
/// says so); from any other app a critical notification is delivered as time-sensitive
/// (``permitted(criticalAllowed:)``), and then passes a do-not-disturb only as a time-sensitive one does.
///
/// Encoded as `"passive"`, `"active"`, `"time-sensitive"` and `"critical"`.
public enum NotificationInterruptionLevel: String, Sendable, Hashable, CaseIterable, Codable {
    /// Information the user may read later: no sound, and no popup where the server keeps notifications in a list.
    case passive

    /// The usual level: shown and heard as the app and the user's settings say.
    case active

    /// Needs the user's attention now (a delivery at the door, a meeting starting): goes through do-not-disturb
    /// where the user allows it.
    case timeSensitive = "time-sensitive"

    /// About health or safety: goes through every do-not-disturb and plays its sound even when the app's sounds
    /// are off.
    case critical

    /// What a time-sensitive notification does with do-not-disturb, in the words every surface uses (the help text,
    /// the interface, the manual, the README, the DocC): one sentence for the one rule,
    /// ``passes(_:timeSensitiveAllowed:)``.
    public static let timeSensitiveRule =
        "through do-not-disturb, the bridge's and the desktop's, where the user allows it for the app"

    /// The level a notification of this level is delivered at: ``critical`` only where the user allows the app
    /// critical notifications (`criticalAllowed`), ``timeSensitive`` in its place otherwise; every other level as
    /// it is.
    ///
    /// | level | allowed | not allowed |
    /// |---|---|---|
    /// | ``passive``, ``active``, ``timeSensitive`` | as it is | as it is |
    /// | ``critical`` | ``critical`` | ``timeSensitive`` |
    public func permitted(criticalAllowed: Bool) -> NotificationInterruptionLevel {
        self == .critical && !criticalAllowed ? .timeSensitive : self
    }

    /// The name used in encoded form, in the daemon's D-Bus API and on the command line.
    public var name: String { rawValue }

    /// Finds the level with the given ``name``; `nil` for any other string.
    public init?(name: String) { self.init(rawValue: name) }

    /// Whether a notification of this level is shown while the do-not-disturb `switch` is on, rather than waiting.
    ///
    /// The one rule for every do-not-disturb the bridge knows, the bridge's own (``DoNotDisturbSwitch/bridge``) and
    /// the desktop's (``DoNotDisturbSwitch/desktop``) alike, as iOS treats Focus: a time-sensitive notification passes
    /// only when the user allows time-sensitive notifications for its app, a critical one always, a passive or active
    /// one never.
    ///
    /// - Parameters:
    ///   - switch: the do-not-disturb that is on.
    ///   - timeSensitiveAllowed: whether the user allows the app's time-sensitive notifications through
    ///     do-not-disturb (``AppNotificationSettings/allowsTimeSensitive``).
    public func passes(_ switch: DoNotDisturbSwitch, timeSensitiveAllowed: Bool) -> Bool {
        switch (self, `switch`) {
        case (.passive, _), (.active, _): false
        case (.timeSensitive, _): timeSensitiveAllowed
        case (.critical, _): true
        }
    }
}

/// Which do-not-disturb a notification meets.
public enum DoNotDisturbSwitch: String, Sendable, Hashable, CaseIterable {
    /// The bridge's own, turned on with `notification-bridge settings --do-not-disturb on`.
    case bridge
    /// The desktop's: GNOME's banners off, Plasma's inhibition, dunst paused, a mako mode, SwayNotificationCenter's.
    case desktop
}

extension NotificationContent {
    /// The level do-not-disturb goes by: ``interruptionLevel``, except that an active notification with urgency
    /// critical counts as critical, as every critical notification did before levels were given.
    public var levelForDoNotDisturb: NotificationInterruptionLevel {
        interruptionLevel == .active && urgency == .critical ? .critical : interruptionLevel
    }

    /// This notification as it is delivered when the user does (`criticalAllowed`) or does not allow its app critical
    /// notifications: one that counts as critical (``levelForDoNotDisturb``) without the permission becomes
    /// time-sensitive, and an urgency critical it gave becomes normal, since a server lets urgency critical through
    /// its own do-not-disturb; `nil` when it stays as it is.
    public func permitted(criticalAllowed: Bool) -> NotificationContent? {
        let level = levelForDoNotDisturb
        let permitted = level.permitted(criticalAllowed: criticalAllowed)
        guard permitted != level else { return nil }
        var lowered = self
        lowered.interruptionLevel = permitted
        if lowered.urgency == .critical { lowered.urgency = .normal }
        return lowered
    }

    /// Whether this notification is shown while the do-not-disturb `switch` is on; see
    /// ``NotificationInterruptionLevel/passes(_:timeSensitiveAllowed:)`` and ``levelForDoNotDisturb``.
    public func passes(_ switch: DoNotDisturbSwitch, timeSensitiveAllowed: Bool) -> Bool {
        levelForDoNotDisturb.passes(`switch`, timeSensitiveAllowed: timeSensitiveAllowed)
    }
}
