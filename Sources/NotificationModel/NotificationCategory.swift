/// A named set of actions, registered once and referenced by notifications through their category id.
///
/// The counterpart of `UIUserNotificationCategory`: ``actions`` is the default context, shown where the server has
/// room for every button, and ``minimalActions`` is the minimal context, shown where it has room for few (GNOME Shell
/// shows three buttons, one of which the bridge may need for the body click).
///
/// Encoded with the keys `id`, `actions`, `minimal-actions`, `reports-dismissal`, `summary-format`, `snooze` and
/// `reports-snooze`; only `id` is required when decoding.
public struct NotificationCategory: Sendable, Hashable {
    /// The identifier notifications use in ``NotificationContent/categoryID``.
    ///
    /// Same character rules as an action id: ASCII letters, digits and `-`, `_`, `.`, `:`.
    public var id: String

    /// The actions of the default context, in the order the buttons appear.
    public var actions: [NotificationAction]

    /// The actions of the minimal context: at most two, each with the id of one of ``actions``.
    ///
    /// An entry may differ from the action of the same id in ``actions`` (a shorter title, say); responses carry only
    /// the id. Leave it empty to use the first two of ``actions``; see ``effectiveMinimalActions``.
    public var minimalActions: [NotificationAction]

    /// Whether a dismissal by the user is reported as a response with ``ReservedActionID/dismiss``.
    ///
    /// Like `customDismissAction`: off by default, because most apps have nothing to do when a notification is
    /// closed without an answer.
    public var reportsDismissal: Bool

    /// The summary line of a thread of this category's notifications, as `categorySummaryFormat`: `%u` is the count
    /// (the sum of the thread's ``NotificationContent/summaryArgumentCount``s), `%@` the thread's
    /// ``NotificationContent/summaryArgument``s, such as `"%u new messages from %@"`. `nil` uses
    /// ``ThreadSummary/defaultFormat``.
    public var summaryFormat: String?

    /// The snooze intervals its notifications offer, the first the one shown where the server has room for a single
    /// snooze button; empty for none. A notification may offer its own (``NotificationContent/snoozeIntervals``).
    public var snoozeIntervals: [SnoozeInterval] = []

    /// Whether a snooze is reported as a response with action ``NotificationResponse/snoozeActionID``; none of the
    /// category's actions may then have that id.
    ///
    /// Off by default: a snoozed notification comes back by itself, and its response, when the user gives one, goes
    /// where it would have gone.
    public var reportsSnooze = false

    /// Makes a category.
    ///
    /// - Parameters:
    ///   - id: The identifier notifications refer to.
    ///   - actions: The actions of the default context.
    ///   - minimalActions: At most two actions for the minimal context; empty to use the first two of `actions`.
    ///   - reportsDismissal: Whether dismissals are reported as ``ReservedActionID/dismiss`` responses.
    ///   - summaryFormat: The summary line of a thread, with `%u` and `%@`; `nil` for the default.
    ///
    /// The initializer does not validate: call ``validate()`` before registering the category.
    public init(
        id: String,
        actions: [NotificationAction] = [],
        minimalActions: [NotificationAction] = [],
        reportsDismissal: Bool = false,
        summaryFormat: String? = nil
    ) {
        self.id = id
        self.actions = actions
        self.minimalActions = minimalActions
        self.reportsDismissal = reportsDismissal
        self.summaryFormat = summaryFormat
    }

    /// The actions to show where the server has room for few buttons.
    ///
    /// ``minimalActions`` when it is not empty, otherwise the first two of ``actions``.
    public var effectiveMinimalActions: [NotificationAction] {
        minimalActions.isEmpty ? Array(actions.prefix(NotificationLimits.maxMinimalActions)) : minimalActions
    }
}

extension NotificationCategory: Codable {
    private enum CodingKeys: String, CodingKey {
        case id
        case actions
        case minimalActions = "minimal-actions"
        case reportsDismissal = "reports-dismissal"
        case summaryFormat = "summary-format"
        case snoozeIntervals = "snooze"
        case reportsSnooze = "reports-snooze"
    }

    /// Decodes a category; only `id` is required.
    ///
    /// - Throws: `DecodingError` when `id` is missing or a value has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id),
            actions: try container.decodeIfPresent([NotificationAction].self, forKey: .actions) ?? [],
            minimalActions: try container.decodeIfPresent([NotificationAction].self, forKey: .minimalActions) ?? [],
            reportsDismissal: try container.decodeIfPresent(Bool.self, forKey: .reportsDismissal) ?? false,
            summaryFormat: try container.decodeIfPresent(String.self, forKey: .summaryFormat)
        )
        snoozeIntervals = try container.decodeIfPresent([SnoozeInterval].self, forKey: .snoozeIntervals) ?? []
        reportsSnooze = try container.decodeIfPresent(Bool.self, forKey: .reportsSnooze) ?? false
    }

    /// Encodes every field of the category; ``summaryFormat`` and the snooze fields only when they are set, so that
    /// what an earlier version wrote reads the same.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(actions, forKey: .actions)
        try container.encode(minimalActions, forKey: .minimalActions)
        try container.encode(reportsDismissal, forKey: .reportsDismissal)
        try container.encodeIfPresent(summaryFormat, forKey: .summaryFormat)
        if !snoozeIntervals.isEmpty { try container.encode(snoozeIntervals, forKey: .snoozeIntervals) }
        if reportsSnooze { try container.encode(reportsSnooze, forKey: .reportsSnooze) }
    }
}
