/// What a notification shows and carries: the counterpart of `UILocalNotification` without its trigger.
///
/// Buttons come either from a registered category (``categoryID``) or from ``actions`` given inline, not both.
/// The initializer takes every field with a default, so a caller names only what it needs:
///
/// ```swift
/// let content = NotificationContent(title: "Backup finished", body: "42 files copied", urgency: .low)
/// ```
///
/// The initializer does not validate: call ``validate(registeredCategories:)`` before posting.
public struct NotificationContent: Sendable, Hashable {
    /// The summary line. May be empty when ``body`` is not.
    public var title: String

    /// The longer text below the title. May be empty when ``title`` is not. Sent as plain text; the bridge escapes it
    /// for servers that interpret markup.
    public var body: String

    /// Whether ``body`` is already written in the server's markup (`<b>`, `<i>`, `<a href>`, entities), as
    /// notify-send's body is: then it is sent as given instead of being escaped for a server that reads markup.
    public var bodyIsMarkup = false

    /// The application name the server shows; `nil` lets the bridge use the posting application's name.
    public var appName: String?

    /// The desktop entry id of the posting application, without `.desktop` (such as `org.example.Mail`).
    ///
    /// Servers use it for the icon, grouping and per-app settings; the bridge uses it to activate the app.
    public var desktopEntry: String?

    /// An icon name from the icon theme, or a `file://` URI; `nil` for the application's icon.
    public var icon: String?

    /// A path to an image shown in the notification (a photo, an avatar); `nil` for none.
    public var image: String?

    /// The label of the default action, chosen by clicking the body; `nil` for no default action.
    ///
    /// The counterpart of `alertAction` and `hasAction`. With a label, a click on the body is reported with
    /// ``NotificationResponse/defaultActionID``; many servers do not show the label itself.
    public var defaultActionLabel: String?

    /// The sound played on arrival; ``NotificationSound/default`` leaves it to the server.
    public var sound: NotificationSound

    /// Data for the app, returned in the response; never sent to the notification server.
    ///
    /// Limited to ``NotificationLimits/maxUserInfoBytes`` as JSON, and numbers must be finite.
    public var userInfo: [String: JSONValue]

    /// The id of a registered ``NotificationCategory`` whose actions the notification shows; `nil` for none.
    public var categoryID: String?

    /// An id grouping related notifications, such as one conversation; `nil` for none.
    ///
    /// The notifications of one app with the same thread id form a thread, as `threadIdentifier` does: where the
    /// server shows every notification on its own, the daemon keeps one notification of a thread on the screen, the
    /// newest, with a summary line (see ``NotificationCategory/summaryFormat``).
    public var threadID: String?

    /// What this notification adds to its thread's summary, such as the sender's name ("Ann" in "3 new messages from
    /// Ann"): the `%@` of the category's ``NotificationCategory/summaryFormat``, as `summaryArgument`. `nil` for none.
    public var summaryArgument: String?

    /// How many items this notification counts for in its thread's summary (the `%u`), as `summaryArgumentCount`:
    /// 1 by default, more for a notification that stands for several messages.
    public var summaryArgumentCount = 1

    /// Whether the thread's summary line is added even where the server groups notifications itself (GNOME Shell,
    /// Plasma), which show every notification of a thread; elsewhere the summary is always shown. Off by default.
    public var alwaysSummarizesThread = false

    /// How urgent the notification is; ``NotificationUrgency/normal`` by default.
    public var urgency: NotificationUrgency

    /// How much the notification may interrupt the user; ``NotificationInterruptionLevel/active`` by default.
    ///
    /// A ``NotificationInterruptionLevel/critical`` notification is sent with urgency critical; for the other levels
    /// an urgency the app sets is sent as set (see ``NotificationInterruptionLevel`` for what each level does).
    public var interruptionLevel: NotificationInterruptionLevel

    /// How long the server shows the notification; ``NotificationTimeout/serverDefault`` by default.
    public var timeout: NotificationTimeout

    /// Whether the notification stays after an action is chosen, rather than being closed (hint `resident`).
    public var isResident: Bool

    /// Whether the server should not keep the notification in its history (hint `transient`).
    public var isTransient: Bool

    /// The count shown on the application's launcher icon, where the dock supports it.
    ///
    /// `nil` leaves the badge as it is; 0 hides it.
    public var badge: Int?

    /// Actions given directly, for a notification without a category.
    ///
    /// The same rules as a category's actions apply: distinct ids, no reserved ids, at most one text-input action
    /// and at most ``NotificationLimits/maxActionsPerCategory``.
    public var actions: [NotificationAction]

    /// The snooze intervals this notification offers, in place of its category's
    /// (``NotificationCategory/snoozeIntervals``): `nil` takes the category's, empty offers none.
    public var snoozeIntervals: [SnoozeInterval]?

    /// Makes notification content; every field is optional, but a title or a body must be given to pass validation.
    public init(
        title: String = "",
        body: String = "",
        appName: String? = nil,
        desktopEntry: String? = nil,
        icon: String? = nil,
        image: String? = nil,
        defaultActionLabel: String? = nil,
        sound: NotificationSound = .default,
        userInfo: [String: JSONValue] = [:],
        categoryID: String? = nil,
        threadID: String? = nil,
        urgency: NotificationUrgency = .normal,
        interruptionLevel: NotificationInterruptionLevel = .active,
        timeout: NotificationTimeout = .serverDefault,
        isResident: Bool = false,
        isTransient: Bool = false,
        badge: Int? = nil,
        actions: [NotificationAction] = []
    ) {
        self.title = title
        self.body = body
        self.appName = appName
        self.desktopEntry = desktopEntry
        self.icon = icon
        self.image = image
        self.defaultActionLabel = defaultActionLabel
        self.sound = sound
        self.userInfo = userInfo
        self.categoryID = categoryID
        self.threadID = threadID
        self.urgency = urgency
        self.interruptionLevel = interruptionLevel
        self.timeout = timeout
        self.isResident = isResident
        self.isTransient = isTransient
        self.badge = badge
        self.actions = actions
    }
}
