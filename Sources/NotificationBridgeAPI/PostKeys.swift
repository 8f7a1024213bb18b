import DBusCore
import NotificationModel

/// The keys of `Post(a{sv} notification)`: what to show, where responses go, what it replaces, server hints; the
/// scheduling keys are in `PostKeys+Scheduling.swift`. Every key is optional, but `title` or `body` must say
/// something. ``NotificationPost`` reads and writes them all.
public enum PostKeys {
    /// `title` (s).
    public static let title = BridgeKey.string(
        "title", example: "<'Backup finished'>", summary: "the summary, in plain text")
    /// `body` (s).
    public static let body = BridgeKey.string(
        "body", example: "<'42 files copied'>", summary: "the text below the title, in plain text")
    /// `body-is-markup` (b).
    public static let bodyMarkup = BridgeKey.boolean(
        "body-is-markup",
        summary: "the body is written in the server's markup already (as notify-send's is): sent as is")
    /// `app-name` (s).
    public static let appName = BridgeKey.string(
        "app-name", example: "<'Mail'>", summary: "the application it is posted under; it owns the notification")
    /// `desktop-entry` (s).
    public static let desktopEntry = BridgeKey.string(
        "desktop-entry", example: "<'org.example.Mail'>", summary: "the app's desktop id, without .desktop")
    /// `icon` (s).
    public static let icon = BridgeKey.string("icon", example: "<'mail-unread'>", summary: "icon name or file:// URI")
    /// `image` (s).
    public static let image = BridgeKey.string(
        "image", example: "<'/home/ann/avatar.png'>", summary: "path of an image shown in it")
    /// `category` (s).
    public static let category = BridgeKey.string(
        "category", example: "<'org.example.mail.message'>", summary: "a registered category, whose actions it shows")
    /// `actions` (aa{sv}, keys in ``ActionKeys``).
    public static let actions = ActionWire.key("actions", summary: "actions of its own, instead of a category's")
    /// `user-info` (s).
    public static let userInfo = UserInfoWire.key(summary: "a JSON object, returned with every response")
    /// `default-action` (s).
    public static let defaultAction = BridgeKey.string(
        "default-action", example: "<'Open'>", summary: "label of the click on the body (reported as action default)")
    /// `sound` (s).
    public static let sound = BridgeKey.string(
        "sound", example: "<'message-new-instant'>",
        summary: "'default', 'none', an absolute sound file path, or a sound theme name"
    ).map(decode: ContentWire.sound(_:_:), encode: ContentWire.text(of:))
    /// `urgency` (s, or y 0–2).
    public static let urgency = BridgeKey<NotificationUrgency>(
        "urgency", types: ["s", "y"], summary: "'low', 'normal', 'critical', or 0-2",
        decode: ContentWire.urgency(_:_:), encode: { .string($0.name) })
    /// `interruption-level` (s).
    public static let interruptionLevel = BridgeKey<NotificationInterruptionLevel>.choice(
        "interruption-level",
        summary: "passive (no sound, no popup where the server can keep it in a list), active (the default), "
            + "time-sensitive (" + NotificationInterruptionLevel.timeSensitiveRule + ") or critical (urgency critical, "
            + "through every do-not-disturb, with sound)")
    /// `timeout` (i).
    public static let timeout = BridgeKey.int32(
        "timeout", example: "<5000>", summary: "milliseconds; -1 the server's default, 0 never"
    ).map(decode: ContentWire.timeout(_:_:), encode: \.wireValue)
    /// `resident` (b).
    public static let resident = BridgeKey.boolean("resident", summary: "stays after an action")
    /// `transient` (b).
    public static let transient = BridgeKey.boolean("transient", summary: "skips the server's history")
    /// `thread` (s).
    public static let thread = BridgeKey.string(
        "thread", example: "<'conversation-42'>", summary: "groups related notifications")
    /// `summary-argument` (s): what the notification adds to its thread's summary (the `%@` of the category's
    /// `summary-format`), as `summaryArgument`.
    public static let summaryArgument = BridgeKey.string(
        "summary-argument", example: "<'Ann'>", summary: "what it adds to its thread's summary, e.g. the sender")
    /// `summary-argument-count` (i): how many items it counts for in its thread's summary (the `%u`), 1 by default.
    public static let summaryArgumentCount = BridgeKey.int32(
        "summary-argument-count", example: "<2>", summary: "how many items it counts for in its thread's summary"
    ).map(decode: ContentWire.summaryCount(_:_:), encode: { Int32(clamping: $0) })
    /// `thread-summary` (b): adds the thread's summary also where the server groups notifications itself.
    public static let threadSummary = BridgeKey.boolean(
        "thread-summary", summary: "add the thread's summary even where the server groups notifications itself")
    /// `badge` (i).
    public static let badge = BridgeKey.int32(
        "badge", example: "<3>", summary: "count on the app's launcher icon (0 hides it)"
    ).map(decode: ContentWire.badge(_:_:), encode: { Int32(clamping: $0) })
    /// `snooze` (ai): seconds; in place of the category's, an empty array for none.
    public static let snooze = SnoozeWire.key(
        "snooze", summary: "snooze intervals in seconds, in place of the category's ([] for none)")
    /// `replaces` (s).
    public static let replaces = BridgeKey.string(
        "replaces", example: "<'3f9c2a7e1b4d5c6a'>",
        summary: "id of a delivered notification of the same app (one of its thread too) to update in place"
    ).map(
        decode: { id, place throws(DBusFailure) in
            try NotificationIDForm.check(id, as: place)
            return id
        }, encode: { $0 })
    /// `fixed-id` (s): the id of the caller's choosing, for callers that name their notifications themselves (a
    /// script's own numbering): the first post with it shows a notification under that id, later ones update it in
    /// place while it shows, and once it has closed show a new one under it again.
    public static let fixedID = BridgeKey.string(
        "fixed-id", example: "<'000000000000270f'>",
        summary: "an id of the caller's choosing: shown under it, or updating the same app's notification that has it"
    ).map(
        decode: { id, place throws(DBusFailure) in
            try NotificationIDForm.check(id, as: place)
            return id
        }, encode: { $0 })
    /// `exec` (as): the response handler is a command; its form is checked here, the program by the daemon (see
    /// ``ExecRule``).
    public static let exec = BridgeKey.strings(
        "exec", example: "<['/usr/bin/my-handler', '--flag']>", summary: "responses go to this command (argv)"
    ).map(
        decode: { argv, _ throws(DBusFailure) in
            try ExecRule.checkForm(argv)
            return argv
        }, encode: { $0 })
    /// `app-action` (b or s): the response handler is the app of `desktop-entry`.
    public static let appAction = BridgeKey<AppActionChoice>(
        "app-action", types: ["b", "s"], summary: "responses go to the app of desktop-entry as an action",
        decode: AppActionChoice.decode(_:_:), encode: \.wireValue)
    /// `hints` (a{sv}).
    public static let hints = BridgeKey<[String: DBusValue]>(
        "hints", types: ["a{sv}"],
        summary: "server hints of the caller's own, added to the bridge's (not those it sets itself)",
        decode: HintsWire.decode(_:_:), encode: { .vardict($0) })
    /// `if-do-not-disturb` (s): what happens to it while the desktop's do-not-disturb holds it back.
    public static let ifDoNotDisturb = BridgeKey<DoNotDisturbChoice>.choice(
        "if-do-not-disturb",
        summary: "while the desktop's do-not-disturb is on and it does not pass: 'hold' (it waits, shown once the "
            + "switch is off; the default) or 'drop' (it ends, Closed with reason 5)")

    /// The keys that describe the content (not the handler, not the trigger).
    public static let content: [BridgeKeyInfo] = [
        title.info, body.info, bodyMarkup.info, appName.info, desktopEntry.info, icon.info, image.info, category.info,
        actions.info,
        userInfo.info, defaultAction.info, sound.info, urgency.info, interruptionLevel.info,
        timeout.info, resident.info, transient.info,
        thread.info, summaryArgument.info, summaryArgumentCount.info, threadSummary.info, badge.info, snooze.info,
    ]
    /// The keys that choose where responses go.
    public static let handler: [BridgeKeyInfo] = [exec.info, appAction.info]
    /// Every key `Post` takes, in the order error messages list them.
    public static let all: [BridgeKeyInfo] = {
        let shown: [BridgeKeyInfo] = content.filter { $0 != badge.info } + [replaces.info, fixedID.info, badge.info]
        return shown + handler + [hints.info, ifDoNotDisturb.info] + scheduling
    }()
}
