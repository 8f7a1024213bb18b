import NotificationModel

/// The keys of `RegisterCategory`'s `options` (`a{sv}`).
public enum CategoryOptionKeys {
    /// `minimal-actions` (as): ids of at most two of the actions.
    public static let minimalActions = BridgeKey.strings(
        "minimal-actions", example: "<['reply', 'archive']>",
        summary: "ids of at most two of the actions, shown where the server shows few buttons")
    /// `reports-dismissal` (b).
    public static let reportsDismissal = BridgeKey.boolean(
        "reports-dismissal", summary: "report a dismissal as a response with action dismiss")

    /// `summary-format` (s): the summary line of a thread, as `categorySummaryFormat`.
    public static let summaryFormat = BridgeKey.string(
        "summary-format", example: "<'%u new messages from %@'>",
        summary: "a thread's summary line: %u the count, %@ the summary arguments")

    /// `snooze` (ai): seconds.
    public static let snooze = SnoozeWire.key(
        "snooze", summary: "snooze intervals in seconds its notifications offer, e.g. <[600, 3600]>")
    /// `reports-snooze` (b).
    public static let reportsSnooze = BridgeKey.boolean(
        "reports-snooze", summary: "report a snooze as a response with action snooze")

    /// Every key, in the order error messages list them.
    public static let all: [BridgeKeyInfo] = [
        minimalActions.info, reportsDismissal.info, summaryFormat.info, snooze.info, reportsSnooze.info,
    ]
}

/// The keys of a category as `ListCategories` returns it: ``id``, ``actions`` and the options.
public enum CategoryKeys {
    /// `id` (s).
    public static let id = BridgeKey.string("id", example: "<'org.example.mail.message'>", summary: "the category's id")
    /// `actions` (aa{sv}, keys in ``ActionKeys``).
    public static let actions = ActionWire.key("actions", summary: "its actions")

    /// Every key.
    public static let all: [BridgeKeyInfo] = [id.info, actions.info] + CategoryOptionKeys.all
}
