/// What the user allows one app's notifications to do: the counterpart of an app's page in iOS's Settings →
/// Notifications.
///
/// The user's choice is the limit; what the app asked for (``NotificationKinds``) is the ceiling:
/// ``limited(to:)`` gives what the app may actually do.
public struct AppNotificationSettings: Sendable, Hashable {
    /// Whether the app's notifications are shown at all.
    public var isAllowed: Bool
    /// How they appear: as an alert that stays, as a banner that goes away, or only in the server's list.
    public var style: NotificationAlertStyle
    /// Whether they may play a sound.
    public var playsSound: Bool
    /// Whether the app may show a count on its launcher icon.
    public var showsBadge: Bool
    /// What shows while the session is locked.
    public var lockScreen: LockScreenVisibility
    /// Whether the app's time-sensitive notifications go through the bridge's do-not-disturb; off until the user
    /// turns it on, as on iOS (see ``NotificationInterruptionLevel/timeSensitive``).
    public var allowsTimeSensitive: Bool
    /// Whether its notifications may offer to be snoozed (their snooze buttons are shown).
    public var allowsSnooze: Bool
    /// Whether its critical notifications are taken as critical (through every do-not-disturb, with sound even when
    /// its sounds are off), as iOS asks the user's consent for an app's critical alerts; `nil` leaves it to the
    /// default, ``allowsCritical(fromSandbox:)``. A critical notification of an app without it is delivered as
    /// time-sensitive (``NotificationInterruptionLevel/permitted(criticalAllowed:)``).
    public var allowsCritical: Bool?
    /// How many of its notifications (of one of its threads) are shown within how long: the excess is folded into
    /// one notification that counts them. ``FloodLimit/off`` (the default) shows every one.
    public var floodLimit: FloodLimit

    /// Settings with every field given; the defaults are what an app gets before the user chooses.
    public init(
        isAllowed: Bool = true, style: NotificationAlertStyle = .banner, playsSound: Bool = true,
        showsBadge: Bool = true, lockScreen: LockScreenVisibility = .show, allowsTimeSensitive: Bool = false,
        allowsSnooze: Bool = true, allowsCritical: Bool? = nil, floodLimit: FloodLimit = .off
    ) {
        self.floodLimit = floodLimit
        self.allowsSnooze = allowsSnooze
        self.allowsCritical = allowsCritical
        self.isAllowed = isAllowed
        self.style = style
        self.playsSound = playsSound
        self.showsBadge = showsBadge
        self.lockScreen = lockScreen
        self.allowsTimeSensitive = allowsTimeSensitive
    }

    /// Whether the app's critical notifications are taken as critical: as the user chose (``allowsCritical``), else
    /// yes for a program of the host, which could as well run anything as the user, and no for an app in a sandbox
    /// until the user allows it.
    public func allowsCritical(fromSandbox: Bool) -> Bool {
        allowsCritical ?? !fromSandbox
    }

    /// What the app may do when it asked for `requested`: a kind it did not ask for is off (no alert kind: style
    /// ``NotificationAlertStyle/none``), whatever the user chose.
    public func limited(to requested: NotificationKinds) -> AppNotificationSettings {
        var limited = self
        if !requested.contains(.alert) { limited.style = .none }
        if !requested.contains(.sound) { limited.playsSound = false }
        if !requested.contains(.badge) { limited.showsBadge = false }
        return limited
    }
}

/// How an app's notifications appear (iOS's alert styles).
public enum NotificationAlertStyle: String, Sendable, Hashable, CaseIterable {
    /// Stays on screen until the user acts on it (expire timeout 0, resident).
    case alert
    /// Shown for the server's usual time, then goes away, staying in the server's list; the default, under which an
    /// app's own timing stands.
    case banner
    /// Not shown as a popup: only in the server's list of notifications, where it keeps one.
    case none
}

/// What an app's notifications show while the session is locked.
public enum LockScreenVisibility: String, Sendable, Hashable, CaseIterable {
    /// Shown as usual.
    case show
    /// Not shown while locked.
    case hide
    /// Shown with a neutral line in place of the title and body.
    case `private`
}

/// The kinds of notification an app asks for (`UIUserNotificationType`): its ceiling.
public struct NotificationKinds: OptionSet, Sendable, Hashable {
    /// One bit per kind.
    public let rawValue: UInt8

    /// Makes a set from its bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Notifications shown as alerts or banners (`UIUserNotificationTypeAlert`).
    public static let alert = NotificationKinds(rawValue: 1 << 0)
    /// Sounds (`UIUserNotificationTypeSound`).
    public static let sound = NotificationKinds(rawValue: 1 << 1)
    /// A count on the app's icon (`UIUserNotificationTypeBadge`).
    public static let badge = NotificationKinds(rawValue: 1 << 2)
    /// Every kind.
    public static let all: NotificationKinds = [.alert, .sound, .badge]

    /// The name of each kind, as the daemon's interface and the command line write it.
    public static let names: [(name: String, kind: NotificationKinds)] = [
        ("alert", .alert), ("sound", .sound), ("badge", .badge),
    ]

    /// The names of the kinds in this set, in the order of ``names``.
    public var names: [String] { Self.names.filter { contains($0.kind) }.map(\.name) }

    /// The set named by `names`; `nil` when one of them names no kind.
    public init?(names: [String]) {
        var kinds = NotificationKinds()
        for name in names {
            guard let kind = Self.names.first(where: { $0.name == name })?.kind else { return nil }
            kinds.insert(kind)
        }
        self = kinds
    }
}
