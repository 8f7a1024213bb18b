/// Encodes content as an object with fixed keys. They are the daemon's stored form (its rows keep them), not its
/// D-Bus API: they were chosen to read as its notification keys, and do not follow a change of those.
///
/// Keys: `title`, `body`, `body-is-markup`, `app-name`, `desktop-entry`, `icon`, `image`, `default-action` (the label),
/// `sound`, `user-info`, `category`, `thread`, `summary-argument`, `summary-argument-count`, `thread-summary`,
/// `urgency`, `interruption-level`, `timeout`, `resident`, `transient`, `badge`, `actions`, `snooze`. Every key is
/// optional when decoding and takes the initializer's default; unset optional fields, and fields at the initializer's
/// default, are left out when encoding (a stored notification is read back faster without them).
extension NotificationContent: Codable {
    fileprivate enum CodingKeys: String, CodingKey {
        case title
        case body
        case bodyIsMarkup = "body-is-markup"
        case appName = "app-name"
        case desktopEntry = "desktop-entry"
        case icon
        case image
        case defaultActionLabel = "default-action"
        case sound
        case userInfo = "user-info"
        case categoryID = "category"
        case threadID = "thread"
        case summaryArgument = "summary-argument"
        case summaryArgumentCount = "summary-argument-count"
        case alwaysSummarizesThread = "thread-summary"
        case urgency
        case interruptionLevel = "interruption-level"
        case timeout
        case isResident = "resident"
        case isTransient = "transient"
        case badge
        case actions
        case snoozeIntervals = "snooze"
    }

    /// Decodes content; see the extension's description for the keys.
    ///
    /// - Throws: `DecodingError` when a value has the wrong type or an unknown name.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(decodingFields: container)
    }

    private init(decodingFields container: KeyedDecodingContainer<CodingKeys>) throws {
        self.init(
            title: try container.decodeIfPresent(String.self, forKey: .title) ?? "",
            body: try container.decodeIfPresent(String.self, forKey: .body) ?? "",
            appName: try container.decodeIfPresent(String.self, forKey: .appName),
            desktopEntry: try container.decodeIfPresent(String.self, forKey: .desktopEntry),
            icon: try container.decodeIfPresent(String.self, forKey: .icon),
            image: try container.decodeIfPresent(String.self, forKey: .image),
            defaultActionLabel: try container.decodeIfPresent(String.self, forKey: .defaultActionLabel),
            sound: try container.decodeIfPresent(NotificationSound.self, forKey: .sound) ?? .default,
            userInfo: try container.decodeIfPresent([String: JSONValue].self, forKey: .userInfo) ?? [:],
            categoryID: try container.decodeIfPresent(String.self, forKey: .categoryID),
            threadID: try container.decodeIfPresent(String.self, forKey: .threadID),
            urgency: try container.decodeIfPresent(NotificationUrgency.self, forKey: .urgency) ?? .normal,
            timeout: try container.decodeIfPresent(NotificationTimeout.self, forKey: .timeout) ?? .serverDefault,
            isResident: try container.decodeIfPresent(Bool.self, forKey: .isResident) ?? false,
            isTransient: try container.decodeIfPresent(Bool.self, forKey: .isTransient) ?? false,
            badge: try container.decodeIfPresent(Int.self, forKey: .badge),
            actions: try container.decodeIfPresent([NotificationAction].self, forKey: .actions) ?? []
        )
        bodyIsMarkup = try container.decodeIfPresent(Bool.self, forKey: .bodyIsMarkup) ?? false
        interruptionLevel =
            try container.decodeIfPresent(NotificationInterruptionLevel.self, forKey: .interruptionLevel) ?? .active
        summaryArgument = try container.decodeIfPresent(String.self, forKey: .summaryArgument)
        summaryArgumentCount = try container.decodeIfPresent(Int.self, forKey: .summaryArgumentCount) ?? 1
        alwaysSummarizesThread = try container.decodeIfPresent(Bool.self, forKey: .alwaysSummarizesThread) ?? false
        snoozeIntervals = try container.decodeIfPresent([SnoozeInterval].self, forKey: .snoozeIntervals)
    }

    /// Encodes the title, the body, and every field that is set and not at its default.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        try container.encode(body, forKey: .body)
        if bodyIsMarkup { try container.encode(bodyIsMarkup, forKey: .bodyIsMarkup) }
        try container.encodeIfPresent(appName, forKey: .appName)
        try container.encodeIfPresent(desktopEntry, forKey: .desktopEntry)
        try container.encodeIfPresent(icon, forKey: .icon)
        try container.encodeIfPresent(image, forKey: .image)
        try container.encodeIfPresent(defaultActionLabel, forKey: .defaultActionLabel)
        if sound != .default { try container.encode(sound, forKey: .sound) }
        if !userInfo.isEmpty { try container.encode(userInfo, forKey: .userInfo) }
        try container.encodeIfPresent(categoryID, forKey: .categoryID)
        try container.encodeIfPresent(threadID, forKey: .threadID)
        try container.encodeIfPresent(summaryArgument, forKey: .summaryArgument)
        if summaryArgumentCount != 1 { try container.encode(summaryArgumentCount, forKey: .summaryArgumentCount) }
        if alwaysSummarizesThread { try container.encode(alwaysSummarizesThread, forKey: .alwaysSummarizesThread) }
        if urgency != .normal { try container.encode(urgency, forKey: .urgency) }
        if interruptionLevel != .active { try container.encode(interruptionLevel, forKey: .interruptionLevel) }
        if timeout != .serverDefault { try container.encode(timeout, forKey: .timeout) }
        if isResident { try container.encode(isResident, forKey: .isResident) }
        if isTransient { try container.encode(isTransient, forKey: .isTransient) }
        try container.encodeIfPresent(badge, forKey: .badge)
        if !actions.isEmpty { try container.encode(actions, forKey: .actions) }
        try container.encodeIfPresent(snoozeIntervals, forKey: .snoozeIntervals)
    }
}

/// What selects a notification among others, its category and thread, read from an encoded ``NotificationContent``
/// without the rest of it: for a store that keeps thousands of notifications and reads each whole only when it is due.
package struct NotificationContentSelection: Decodable, Sendable {
    /// The content's ``NotificationContent/categoryID``.
    package var categoryID: String?
    /// The content's ``NotificationContent/threadID``.
    package var threadID: String?

    /// The key of ``categoryID`` in what ``NotificationContent/encode(to:)`` writes.
    package static var categoryKey: String { NotificationContent.CodingKeys.categoryID.stringValue }
    /// The key of ``threadID`` in what ``NotificationContent/encode(to:)`` writes.
    package static var threadKey: String { NotificationContent.CodingKeys.threadID.stringValue }

    /// Reads the two fields from what ``NotificationContent/encode(to:)`` wrote.
    ///
    /// - Throws: `DecodingError` when the value is not a keyed container, or a field is not a string.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: NotificationContent.CodingKeys.self)
        categoryID = try container.decodeIfPresent(String.self, forKey: .categoryID)
        threadID = try container.decodeIfPresent(String.self, forKey: .threadID)
    }
}
