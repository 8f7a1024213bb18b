import DBusCore
import NotificationModel

/// The keys of an app's notification settings (`a{sv}`): what `GetSettings` and `ListSettings` return and what
/// `SetSettings` takes. ``AppSettingsRecord`` reads and writes them.
public enum SettingsKeys {
    /// `app-id` (s).
    public static let app = BridgeKey.string(
        "app-id", example: "<'org.example.Mail'>", summary: "the app: its desktop id, or the app name it posts under")
    /// `allowed` (b).
    public static let allowed = BridgeKey.boolean(
        "allowed", summary: "whether the app's notifications are shown at all")
    /// `style` (s).
    public static let style = BridgeKey<NotificationAlertStyle>.choice(
        "style", summary: "alert (stays until acted on), banner (goes away by itself) or none (not shown as a popup)")
    /// `sound` (b).
    public static let sound = BridgeKey.boolean("sound", summary: "whether its notifications may play a sound")
    /// `badge` (b).
    public static let badge = BridgeKey.boolean("badge", summary: "whether it may show a count on its icon")
    /// `lock-screen` (s).
    public static let lockScreen = BridgeKey<LockScreenVisibility>.choice(
        "lock-screen", summary: "while the session is locked: show, hide, or private (a neutral line instead)")
    /// `time-sensitive` (b).
    public static let timeSensitive = BridgeKey.boolean(
        "time-sensitive",
        summary: "whether its time-sensitive notifications go through do-not-disturb (off by default)")
    /// `critical-alerts` (b).
    public static let critical = BridgeKey.boolean(
        "critical-alerts",
        summary: "whether its critical notifications are taken as critical, through every do-not-disturb; without it "
            + "they are delivered as time-sensitive (absent: the default, on for host programs, off for sandboxed apps)"
    )
    /// `snooze` (b).
    public static let snooze = BridgeKey.boolean(
        "snooze", summary: "whether its notifications may offer snooze buttons")
    /// `flood-limit` (s).
    public static let floodLimit = BridgeKey.string(
        "flood-limit", example: "<'10/10s'>",
        summary: "how many of its notifications (of one of its threads) are shown within how long, such as 10/10s; the "
            + "excess is folded into one that counts them (off, the default: every one is shown)"
    ).map(
        decode: { text, place throws(DBusFailure) in
            do throws(FloodLimitError) {
                return try FloodLimit.parse(text)
            } catch {
                throw place.invalid("is \(quotedForMessage(text)): \(error.description)")
            }
        },
        encode: { $0.description })
    /// `do-not-disturb` (b).
    public static let doNotDisturb = BridgeKey.boolean(
        "do-not-disturb",
        summary: "the user's global do-not-disturb: no popups but critical ones (and time-sensitive ones of the apps "
            + "allowed them), for every app")
    /// `requested` (as).
    public static let requested = BridgeKey.strings(
        "requested", example: "<['alert', 'sound', 'badge']>",
        summary: "what the app asked for (alert, sound, badge): the ceiling of what it may do"
    ).map(
        decode: { names, place throws(DBusFailure) in
            guard let kinds = NotificationKinds(names: names) else {
                let bad = names.first { NotificationKinds(names: [$0]) == nil } ?? ""
                throw place.invalid("names \(quotedForMessage(bad)); use 'alert', 'sound' and 'badge'")
            }
            return kinds
        },
        encode: { $0.names })
    /// `source` (s).
    public static let source = BridgeKey<SettingsSource>.choice(
        "source", summary: "where the settings are kept: gnome (GNOME's own keys) or file (the bridge's settings.ini)")

    /// The keys `SetSettings` takes.
    public static let settable: [BridgeKeyInfo] = [
        allowed.info, style.info, sound.info, badge.info, lockScreen.info, snooze.info, doNotDisturb.info,
        requested.info, timeSensitive.info, critical.info, floodLimit.info,
    ]

    /// Every key.
    public static let all: [BridgeKeyInfo] = [app.info] + settable + [source.info]
}

/// Where the daemon keeps notification settings.
public enum SettingsSource: String, Sendable, Hashable, CaseIterable {
    /// GNOME's GSettings keys (`org.gnome.desktop.notifications`), shared with GNOME's Settings app.
    case gnome
    /// The bridge's own key file, `$XDG_CONFIG_HOME/notification-bridge/settings.ini`.
    case file
}
