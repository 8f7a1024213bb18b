import FreedesktopNotifications

/// How a ``NotificationServer`` behaves: what it advertises and every way in which real servers differ.
///
/// The presets (``gnomeShell``, ``gnomeShell43``, ``plasma``, ``dunst``, ``mako``, ``swayNotificationCenter``,
/// ``xfce4Notifyd``, ``notificationDaemon``, ``mateNotificationDaemon``, ``lxqtNotificationd``, ``fullFeatured``)
/// mirror the table "What real servers do" in `PROTOCOLS.md`; start from one and change a field to script an unusual
/// server:
///
/// ```swift
/// var budgieLike = NotificationServerProfile.gnomeShell
/// budgieLike.extraDefaultAfterButton = true
/// ```
public struct NotificationServerProfile: Sendable, Hashable {
    // MARK: What the server advertises

    /// The answer to `GetCapabilities`, in this order.
    public var capabilities: [String]
    /// `GetServerInformation`'s name.
    public var serverName: String
    /// `GetServerInformation`'s vendor.
    public var vendor: String
    /// `GetServerInformation`'s version.
    public var version: String
    /// `GetServerInformation`'s specification version. Not a feature test: GNOME and Plasma say 1.2 and still send
    /// `ActivationToken`.
    public var specVersion: String

    // MARK: Signals after user actions

    /// Where `ActionInvoked`, `ActivationToken` and `NotificationClosed` go.
    public var signalDelivery: SignalDelivery
    /// The reason of the `NotificationClosed` that follows `ActionInvoked`, or `nil` when the notification stays up
    /// after an action. A notification with the `resident` hint stays either way, as the specification asks.
    public var closeAfterAction: NotificationCloseReason?
    /// How inline replies are reported, or `nil` when the server has no inline reply (then
    /// ``NotificationServer/reply(id:text:)`` throws).
    public var replyDelivery: ReplyDelivery?
    /// Whether `ActivationToken(id, token)` is sent just before each `ActionInvoked`.
    public var sendsActivationTokenBeforeAction: Bool
    /// Whether a button other than `default` is followed by a second `ActionInvoked(id, "default")` when the
    /// notification has a `default` action, as Budgie does.
    public var extraDefaultAfterButton: Bool
    /// How many action buttons the server shows (`default`, the body click, is not a button; neither is
    /// `inline-reply` on a server with inline reply), or `nil` for no limit. Actions past the limit cannot be
    /// invoked: ``NotificationServer/invokeAction(id:key:activationToken:)`` throws for them.
    public var maximumButtons: Int?
    /// Above how many buttons the actions are shown as a list with the first one already chosen, so that one
    /// confirming click invokes it (lxqt-notificationd: a combo box and OK for more than 3); `nil` for plain
    /// buttons. See ``NotificationServer/confirmPreselectedAction(id:)``.
    public var preselectsFirstButtonAbove: Int?
    /// The reason of the `NotificationClosed` sent when the user clicks the close button: 2 (dismissed), but 1
    /// (expired) on mate-notification-daemon.
    public var closeButtonReason: NotificationCloseReason
    /// Whether every `NotificationClosed` is followed by a second one for the same id, with reason 2 (dismissed)
    /// whatever the first said, as SwayNotificationCenter 0.7.3 does.
    public var repeatsNotificationClosed: Bool

    // MARK: Notify

    /// Whether replacing a live notification (`replaces_id` > 0) gives it a new id instead of keeping the old one.
    /// The old id then ends without `NotificationClosed`: the client learns the new id from the reply.
    public var newIDOnReplace: Bool
    /// What an odd-length `actions` list does.
    public var oddActionList: OddActionListPolicy
    /// What an `urgency` hint that is not a byte does.
    public var urgencyHint: UrgencyHintPolicy
    /// A window in which a notification identical to the previous one (same app name, summary and body, not a
    /// replacement, whoever sends it) is refused with
    /// `org.freedesktop.Notifications.Error.ExcessNotificationGeneration`, as Plasma does within 1 s; `nil` accepts
    /// repeats.
    public var refusesRepeatsWithin: Duration?

    // MARK: Lifetime

    /// The timeout used when a client asks for the server default (`expire_timeout` -1), or `nil` for never.
    public var defaultTimeout: Duration?
    /// Whether the client's `expire_timeout` is honoured. GNOME Shell ignores it; the server default then applies.
    public var honorsExpireTimeout: Bool
    /// What happens when a timeout passes.
    public var expiry: ExpiryBehavior
    /// What `CloseNotification` answers for an id the server does not know.
    public var unknownIDOnClose: UnknownIDClosePolicy
    /// Whether a sender's notifications are dropped, without a signal, when its connection leaves the bus, as GNOME
    /// Shell 46+ does.
    public var dropsNotificationsOfVanishedSenders: Bool
    /// Whether the notifications stay on the screen when the process that owns the name restarts, as on GNOME Shell,
    /// whose gjs service `org.gnome.Shell.Notifications` owns the name and forwards to the shell. Their buttons then
    /// reach nobody until a client replaces them through the new service. See
    /// ``NotificationServer/restartService(on:)``.
    public var notificationsOutliveService: Bool
    /// Whether the server groups notifications by app (GNOME Shell's message list, Plasma's history), so that many
    /// notifications of one app do not fill the screen; every other server shows each notification on its own.
    public var groupsByApp: Bool
    /// Whether a replaced notification loses its buttons, as on GNOME Shell 43, which rebuilds the banner on the
    /// screen before it adds the new actions: the replacement is shown, but none of its actions can be invoked.
    public var replacementDropsButtons: Bool

    /// Describes a server. Every parameter after the server information has the behaviour the specification
    /// describes as its default.
    public init(
        capabilities: [String], serverName: String, vendor: String, version: String, specVersion: String = "1.2",
        signalDelivery: SignalDelivery = .broadcast, closeAfterAction: NotificationCloseReason? = .dismissed,
        replyDelivery: ReplyDelivery? = nil, sendsActivationTokenBeforeAction: Bool = false,
        extraDefaultAfterButton: Bool = false, maximumButtons: Int? = nil, preselectsFirstButtonAbove: Int? = nil,
        closeButtonReason: NotificationCloseReason = .dismissed, repeatsNotificationClosed: Bool = false,
        newIDOnReplace: Bool = false,
        oddActionList: OddActionListPolicy = .dropUnpairedKey, urgencyHint: UrgencyHintPolicy = .anyInteger,
        refusesRepeatsWithin: Duration? = nil, defaultTimeout: Duration? = .seconds(5),
        honorsExpireTimeout: Bool = true, expiry: ExpiryBehavior = .close,
        unknownIDOnClose: UnknownIDClosePolicy = .ignore, dropsNotificationsOfVanishedSenders: Bool = false,
        notificationsOutliveService: Bool = false, replacementDropsButtons: Bool = false, groupsByApp: Bool = false
    ) {
        self.capabilities = capabilities
        self.serverName = serverName
        self.vendor = vendor
        self.version = version
        self.specVersion = specVersion
        self.signalDelivery = signalDelivery
        self.closeAfterAction = closeAfterAction
        self.replyDelivery = replyDelivery
        self.sendsActivationTokenBeforeAction = sendsActivationTokenBeforeAction
        self.extraDefaultAfterButton = extraDefaultAfterButton
        self.maximumButtons = maximumButtons
        self.preselectsFirstButtonAbove = preselectsFirstButtonAbove
        self.closeButtonReason = closeButtonReason
        self.repeatsNotificationClosed = repeatsNotificationClosed
        self.newIDOnReplace = newIDOnReplace
        self.oddActionList = oddActionList
        self.urgencyHint = urgencyHint
        self.refusesRepeatsWithin = refusesRepeatsWithin
        self.defaultTimeout = defaultTimeout
        self.honorsExpireTimeout = honorsExpireTimeout
        self.expiry = expiry
        self.unknownIDOnClose = unknownIDOnClose
        self.dropsNotificationsOfVanishedSenders = dropsNotificationsOfVanishedSenders
        self.notificationsOutliveService = notificationsOutliveService
        self.replacementDropsButtons = replacementDropsButtons
        self.groupsByApp = groupsByApp
    }

    /// Whether `capability` is advertised.
    public func advertises(_ capability: String) -> Bool {
        capabilities.contains(capability)
    }

    /// Whether the server shows actions at all (capability `actions`).
    public var supportsActions: Bool { advertises("actions") }

    /// Whether the server shows a text field for the `inline-reply` action: capability `inline-reply` and a
    /// ``replyDelivery``.
    public var supportsInlineReply: Bool { replyDelivery != nil && advertises("inline-reply") }
}
