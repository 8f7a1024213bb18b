import DBusCore
import NotificationModel

/// The content keys of a notification (``PostKeys/content``), written from `NotificationContent`.
public enum ContentEntries {
    /// The keys that are set, and `title`, `body`, `urgency`, `timeout`, `resident`, `transient` and `user-info`
    /// always.
    public static func entries(of content: NotificationContent) -> WireEntries {
        var entries = WireEntries()
        entries[PostKeys.title] = content.title
        entries[PostKeys.body] = content.body
        if content.bodyIsMarkup { entries[PostKeys.bodyMarkup] = true }
        entries[PostKeys.urgency] = content.urgency
        entries[PostKeys.timeout] = content.timeout
        entries[PostKeys.resident] = content.isResident
        entries[PostKeys.transient] = content.isTransient
        entries[PostKeys.userInfo] = content.userInfo
        entries[PostKeys.appName] = content.appName
        entries[PostKeys.desktopEntry] = content.desktopEntry
        entries[PostKeys.icon] = content.icon
        entries[PostKeys.image] = content.image
        entries[PostKeys.category] = content.categoryID
        entries[PostKeys.defaultAction] = content.defaultActionLabel
        entries[PostKeys.thread] = content.threadID
        entries[PostKeys.summaryArgument] = content.summaryArgument
        if content.summaryArgumentCount != 1 { entries[PostKeys.summaryArgumentCount] = content.summaryArgumentCount }
        if content.alwaysSummarizesThread { entries[PostKeys.threadSummary] = true }
        entries[PostKeys.badge] = content.badge
        if !content.actions.isEmpty { entries[PostKeys.actions] = content.actions }
        if content.sound != .default { entries[PostKeys.sound] = content.sound }
        if content.interruptionLevel != .active { entries[PostKeys.interruptionLevel] = content.interruptionLevel }
        entries[PostKeys.snooze] = content.snoozeIntervals
        return entries
    }

    /// Reads the content keys.
    static func content(_ reader: VariantDictionary) throws(DBusFailure) -> NotificationContent {
        var content = NotificationContent(
            title: try reader.decode(PostKeys.title) ?? "",
            body: try reader.decode(PostKeys.body) ?? "",
            appName: try reader.decode(PostKeys.appName),
            desktopEntry: try reader.decode(PostKeys.desktopEntry),
            icon: try reader.decode(PostKeys.icon),
            image: try reader.decode(PostKeys.image),
            defaultActionLabel: try reader.decode(PostKeys.defaultAction),
            categoryID: try reader.decode(PostKeys.category),
            threadID: try reader.decode(PostKeys.thread),
            isResident: try reader.decode(PostKeys.resident) ?? false,
            isTransient: try reader.decode(PostKeys.transient) ?? false)
        content.bodyIsMarkup = try reader.decode(PostKeys.bodyMarkup) ?? false
        if let sound = try reader.decode(PostKeys.sound) { content.sound = sound }
        if let level = try reader.decode(PostKeys.interruptionLevel) { content.interruptionLevel = level }
        // A critical notification is sent with urgency critical: said here too, so that listings show it so.
        if let urgency = try reader.decode(PostKeys.urgency) {
            content.urgency = urgency
        } else if content.interruptionLevel == .critical {
            content.urgency = .critical
        }
        if let timeout = try reader.decode(PostKeys.timeout) { content.timeout = timeout }
        content.badge = try reader.decode(PostKeys.badge)
        content.summaryArgument = try reader.decode(PostKeys.summaryArgument)
        content.summaryArgumentCount = try reader.decode(PostKeys.summaryArgumentCount) ?? 1
        content.alwaysSummarizesThread = try reader.decode(PostKeys.threadSummary) ?? false
        if let userInfo = try reader.decode(PostKeys.userInfo) { content.userInfo = userInfo }
        if let actions = try reader.decode(PostKeys.actions) { content.actions = actions }
        content.snoozeIntervals = try reader.decode(PostKeys.snooze)
        return content
    }
}
