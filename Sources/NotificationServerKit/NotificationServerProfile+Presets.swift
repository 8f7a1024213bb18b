/// Profiles of the servers people run, from their sources and from what was observed (`PROTOCOLS.md`).
extension NotificationServerProfile {
    /// GNOME Shell 46: groups notifications by app; signals to the sender only; closes non-resident notifications after an action with reason 2;
    /// `ActivationToken` before `ActionInvoked`; three buttons; ignores `expire_timeout` and never expires a
    /// notification (it moves to the message tray); drops a sender's notifications when its connection goes away.
    public static let gnomeShell = NotificationServerProfile(
        capabilities: ["actions", "body", "body-markup", "icon-static", "persistence", "sound"],
        serverName: "gnome-shell", vendor: "GNOME", version: "46.0", specVersion: "1.2",
        signalDelivery: .unicastToSender, closeAfterAction: .dismissed,
        sendsActivationTokenBeforeAction: true, maximumButtons: 3,
        oddActionList: .dropUnpairedKey, urgencyHint: .anyInteger,
        defaultTimeout: nil, honorsExpireTimeout: false,
        dropsNotificationsOfVanishedSenders: true, groupsByApp: true)

    /// GNOME Shell 43 (Debian 12), as seen through its real notification service: the gjs service
    /// `org.gnome.Shell.Notifications` owns the name and forwards to the shell, and sends `ActionInvoked` and
    /// `NotificationClosed` to the poster only; no `ActivationToken`; three buttons; closes after a button with
    /// reason 2; ignores `expire_timeout` and never expires a notification; a restart of the service alone leaves the
    /// shell's notifications on the screen, their buttons reaching nobody; a replaced notification loses its buttons;
    /// groups notifications by app, and keeps the last three of an app (`make interop` saw the older ones closed),
    /// which this profile does not do.
    public static let gnomeShell43 = NotificationServerProfile(
        capabilities: ["actions", "body", "body-markup", "icon-static", "persistence", "sound"],
        serverName: "gnome-shell", vendor: "GNOME", version: "43.9", specVersion: "1.2",
        signalDelivery: .unicastToSender, closeAfterAction: .dismissed, maximumButtons: 3,
        oddActionList: .dropUnpairedKey, urgencyHint: .anyInteger,
        defaultTimeout: nil, honorsExpireTimeout: false, notificationsOutliveService: true,
        replacementDropsButtons: true, groupsByApp: true)

    /// KDE Plasma 6: groups notifications by app; broadcast signals; closes after an action with reason 3; inline reply (`NotificationReplied` to
    /// the sender, then reason 3); `ActivationToken`; drops every action of an odd-length list; refuses an identical
    /// notification within 1 s. Plasma 5.27.5 (Debian 12) did the same where `make interop` looked: `ActivationToken`,
    /// `ActionInvoked` and one `NotificationClosed` (reason 3) broadcast per action; `NotificationReplied` to the
    /// poster only, then `NotificationClosed` (reason 3) broadcast.
    public static let plasma = NotificationServerProfile(
        capabilities: [
            "body", "body-hyperlinks", "body-markup", "body-images", "icon-static", "actions", "persistence",
            "inline-reply", "x-kde-urls", "x-kde-origin-name", "x-kde-display-appname", "inhibitions",
        ],
        serverName: "Plasma", vendor: "KDE", version: "6.0", specVersion: "1.2",
        signalDelivery: .broadcast, closeAfterAction: .closedByCall, replyDelivery: .plasma,
        sendsActivationTokenBeforeAction: true, oddActionList: .dropAll, urgencyHint: .anyInteger,
        refusesRepeatsWithin: .seconds(1), defaultTimeout: .seconds(5), groupsByApp: true)

    /// dunst 1.9: signals to the sender only; closes after an action with reason 3; no token; actions in a context menu
    /// in an order of its own; keeps the complete pairs of an odd-length action list; reads `urgency` only as a
    /// byte (another type means normal urgency).
    public static let dunst = NotificationServerProfile(
        capabilities: [
            "actions", "body", "body-hyperlinks", "icon-static", "synchronous", "private-synchronous",
            "x-canonical-private-synchronous", "x-dunst-stack-tag", "body-markup",
        ],
        serverName: "dunst", vendor: "knopwob", version: "1.9.0", specVersion: "1.2",
        signalDelivery: .unicastToSender, closeAfterAction: .closedByCall,
        oddActionList: .dropUnpairedKey, urgencyHint: .byteOnly, defaultTimeout: .seconds(10))

    /// mako 1.7.1 (Debian 12), as `make interop` saw it: broadcast signals; the notification stays up after an action
    /// (`makoctl invoke`), so the client's own close comes back with reason 3; no `ActivationToken`; no buttons, but
    /// `makoctl invoke` and `makoctl menu` reach every action; `makoctl dismiss` closes with reason 2; no timeout of
    /// its own (`default-timeout=0`); refuses an odd-length action list.
    public static let mako = NotificationServerProfile(
        capabilities: [
            "body", "body-markup", "actions", "icon-static", "x-canonical-private-synchronous", "x-dunst-stack-tag",
        ],
        serverName: "mako", vendor: "emersion", version: "1.7.1", specVersion: "1.2",
        signalDelivery: .broadcast, closeAfterAction: nil, oddActionList: .refuse, urgencyHint: .anyInteger,
        defaultTimeout: nil)

    /// SwayNotificationCenter 0.7.3 (Debian 12), as `make interop` saw it: broadcast signals; no inline reply; no
    /// `ActivationToken`; closes after an action with reason 2, and sends every `NotificationClosed` twice (the
    /// second with reason 2, also after the client's own close); an expired bubble moves to its control centre
    /// without a signal.
    public static let swayNotificationCenter = NotificationServerProfile(
        capabilities: [
            "actions", "body", "body-markup", "body-images", "persistence", "synchronous", "private-synchronous",
            "x-canonical-private-synchronous",
        ],
        serverName: "SwayNotificationCenter", vendor: "ErikReider", version: "0.7.3", specVersion: "1.2",
        signalDelivery: .broadcast, closeAfterAction: .dismissed, repeatsNotificationClosed: true,
        urgencyHint: .anyInteger, defaultTimeout: .seconds(10), expiry: .keep)

    /// xfce4-notifyd 0.7: broadcast signals; real buttons; closes after an action with reason 2 (not a dismissal);
    /// no token.
    public static let xfce4Notifyd = NotificationServerProfile(
        capabilities: [
            "actions", "body", "body-hyperlinks", "body-markup", "icon-static", "x-canonical-private-synchronous",
            "x-canonical-private-icon-only",
        ],
        serverName: "Xfce Notify Daemon", vendor: "Xfce", version: "0.7.3", specVersion: "1.2",
        signalDelivery: .broadcast, closeAfterAction: .dismissed, urgencyHint: .anyInteger,
        defaultTimeout: .seconds(10))

    /// notification-daemon 3.20: signals to the sender; closes non-resident notifications after an action with reason
    /// 2; on timeout only transient notifications are reported closed: any other bubble vanishes without
    /// `NotificationClosed`; refuses `CloseNotification(0)` with `org.freedesktop.Notifications.InvalidId`.
    public static let notificationDaemon = NotificationServerProfile(
        capabilities: ["actions", "body", "body-hyperlinks", "body-markup", "icon-static", "persistence", "sound"],
        serverName: "Notification Daemon", vendor: "GNOME", version: "3.20.0", specVersion: "1.2",
        signalDelivery: .unicastToSender, closeAfterAction: .dismissed, urgencyHint: .anyInteger,
        defaultTimeout: .seconds(7), expiry: .closeTransientOnly, unknownIDOnClose: .refuseZero)

    /// mate-notification-daemon 1.26: broadcast signals; real buttons; closes after an action with reason 2; its close
    /// button (X) closes with reason **1**, as if the notification had expired; 7 s by default.
    public static let mateNotificationDaemon = NotificationServerProfile(
        capabilities: ["actions", "action-icons", "body", "body-hyperlinks", "body-markup", "icon-static", "sound"],
        serverName: "Notification Daemon", vendor: "MATE", version: "1.26.0", specVersion: "1.1",
        signalDelivery: .broadcast, closeAfterAction: .dismissed, closeButtonReason: .expired,
        urgencyHint: .anyInteger, defaultTimeout: .seconds(7))

    /// lxqt-notificationd 1.2: broadcast signals; up to three actions as buttons, more as a combo box with the **first
    /// one preselected** and an OK button; closes after an action with reason 2.
    public static let lxqtNotificationd = NotificationServerProfile(
        capabilities: ["actions", "body", "body-hyperlinks", "body-images", "body-markup", "persistence"],
        serverName: "lxqt-notificationd", vendor: "lxqt.org", version: "1.2.0", specVersion: "1.2",
        signalDelivery: .broadcast, closeAfterAction: .dismissed, preselectsFirstButtonAbove: 3,
        urgencyHint: .anyInteger, defaultTimeout: .seconds(10))

    /// Everything a client may use, for the demo: actions with icons, markup, hyperlinks, inline reply (Plasma's
    /// behaviour, the extension's origin), persistence, sound, `ActivationToken`; signals to the sender only (the
    /// strictest delivery, so a client that works here works on GNOME and dunst too); reason 2 after an action.
    public static let fullFeatured = NotificationServerProfile(
        capabilities: [
            "actions", "action-icons", "body", "body-hyperlinks", "body-markup", "icon-static", "persistence",
            "sound", "inline-reply",
        ],
        serverName: "NotificationServerKit", vendor: "NotificationBridge", version: "1.0", specVersion: "1.3",
        signalDelivery: .unicastToSender, closeAfterAction: .dismissed, replyDelivery: .plasma,
        sendsActivationTokenBeforeAction: true, urgencyHint: .anyInteger, defaultTimeout: .seconds(8))

    /// Every preset with a short name, for parameterised tests and for the demo's `--profile` option.
    public static let presets: [(name: String, profile: NotificationServerProfile)] = [
        ("gnome-shell", .gnomeShell), ("gnome-shell-43", .gnomeShell43), ("plasma", .plasma), ("dunst", .dunst),
        ("mako", .mako),
        ("swaync", .swayNotificationCenter), ("xfce4-notifyd", .xfce4Notifyd),
        ("notification-daemon", .notificationDaemon), ("mate-notification-daemon", .mateNotificationDaemon),
        ("lxqt-notificationd", .lxqtNotificationd), ("full", .fullFeatured),
    ]

    /// The preset with this short name (see ``presets``), or `nil`.
    public static func preset(named name: String) -> NotificationServerProfile? {
        presets.first { $0.name == name }?.profile
    }
}
