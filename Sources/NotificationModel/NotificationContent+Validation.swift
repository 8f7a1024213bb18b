extension NotificationContent {
    /// Checks that the notification can be posted, with categories looked up in a collection of registered ids.
    ///
    /// See ``validate(isCategoryRegistered:)`` for the rules. A `Set` makes the lookup constant-time.
    ///
    /// - Throws: ``NotificationValidationError`` naming the field (`content.title`, `content.actions[0].id`, …).
    public func validate(registeredCategories: some Collection<String>) throws(NotificationValidationError) {
        try validate(isCategoryRegistered: { registeredCategories.contains($0) })
    }

    /// Checks that the notification can be posted, with categories looked up through a closure.
    ///
    /// Rules:
    /// - ``title`` and ``body`` are not both empty; the title fits in ``NotificationLimits/maxTitleBytes`` and the body
    ///   in ``NotificationLimits/maxBodyBytes``; no text contains NUL.
    /// - Optional texts (``appName``, ``desktopEntry``, ``icon``, ``image``, ``threadID``, sound names and files) are
    ///   `nil` or not empty; ``desktopEntry`` has no `.desktop` suffix. An empty ``defaultActionLabel`` is allowed.
    /// - ``categoryID`` is a valid identifier for which `isCategoryRegistered` returns `true`, and is not combined with
    ///   inline ``actions``.
    /// - ``actions`` follow the rules of a category's actions (see ``NotificationCategory/validate()``).
    /// - ``userInfo`` holds finite numbers only and is at most ``NotificationLimits/maxUserInfoBytes`` as JSON.
    /// - A ``NotificationTimeout/milliseconds(_:)`` timeout is positive; ``badge`` is not negative.
    /// - A ``NotificationInterruptionLevel/critical`` notification does not ask for urgency low.
    /// - ``snoozeIntervals`` pass ``SnoozeInterval/validate(_:field:)``.
    ///
    /// - Parameter isCategoryRegistered: Returns whether a category id is registered; called at most once.
    /// - Throws: ``NotificationValidationError`` naming the field (`content.title`, `content.actions[0].id`, …).
    public func validate(isCategoryRegistered: (String) -> Bool) throws(NotificationValidationError) {
        try validateTexts()
        try validateButtons(isCategoryRegistered: isCategoryRegistered)
        try validateUserInfo()
        if case .milliseconds(let milliseconds) = timeout, milliseconds <= 0 {
            throw .invalidTimeout(field: "content.timeout", milliseconds: milliseconds)
        }
        if let badge, badge < 0 {
            throw .negativeBadge(field: "content.badge", value: badge)
        }
        if interruptionLevel == .critical, urgency == .low {
            throw .lowUrgencyForCriticalLevel(field: "content.urgency")
        }
        if let snoozeIntervals { try SnoozeInterval.validate(snoozeIntervals, field: "content.snoozeIntervals") }
    }

    private func validateTexts() throws(NotificationValidationError) {
        guard !title.isEmpty || !body.isEmpty else { throw .missingTitleAndBody(field: "content") }
        let titleLimit = NotificationLimits.maxTitleBytes
        try ValidationRules.checkText(title, field: "content.title", limit: titleLimit)
        try ValidationRules.checkText(body, field: "content.body", limit: NotificationLimits.maxBodyBytes)
        try ValidationRules.checkNonEmpty(appName, field: "content.appName", limit: titleLimit)
        try ValidationRules.checkNonEmpty(
            desktopEntry,
            field: "content.desktopEntry",
            limit: NotificationLimits.maxIdentifierLength
        )
        if let desktopEntry, desktopEntry.hasSuffix(desktopSuffix) {
            throw .desktopEntryHasSuffix(field: "content.desktopEntry", value: desktopEntry)
        }
        // Paths and URIs: bounded by the body limit rather than PATH_MAX, which is not the same everywhere.
        let pathLimit = NotificationLimits.maxBodyBytes
        try ValidationRules.checkNonEmpty(icon, field: "content.icon", limit: pathLimit)
        try ValidationRules.checkNonEmpty(image, field: "content.image", limit: pathLimit)
        if let defaultActionLabel {
            try ValidationRules.checkText(defaultActionLabel, field: "content.defaultActionLabel", limit: titleLimit)
        }
        switch sound {
        case .named(let name):
            try ValidationRules.checkNonEmpty(name, field: "content.sound.named", limit: titleLimit)
        case .file(let path):
            try ValidationRules.checkNonEmpty(path, field: "content.sound.file", limit: pathLimit)
        case .default, .none:
            break
        }
        try ValidationRules.checkNonEmpty(
            threadID,
            field: "content.threadID",
            limit: NotificationLimits.maxIdentifierLength
        )
        try ValidationRules.checkNonEmpty(summaryArgument, field: "content.summaryArgument", limit: titleLimit)
        guard summaryArgumentCount >= 0, summaryArgumentCount <= Int(Int32.max) else {
            throw .invalidSummary(
                field: "content.summaryArgumentCount",
                problem: "is \(summaryArgumentCount); use 0 or more (1, the default, for one message)")
        }
    }

    private func validateButtons(isCategoryRegistered: (String) -> Bool) throws(NotificationValidationError) {
        if let categoryID {
            try ValidationRules.checkIdentifier(categoryID, field: "content.categoryID")
            guard actions.isEmpty else {
                throw .categoryWithInlineActions(field: "content.actions", categoryID: categoryID)
            }
            guard isCategoryRegistered(categoryID) else {
                throw .unknownCategory(field: "content.categoryID", id: categoryID)
            }
        }
        guard actions.count <= NotificationLimits.maxActionsPerCategory else {
            throw .tooManyActions(
                field: "content.actions",
                count: actions.count,
                limit: NotificationLimits.maxActionsPerCategory
            )
        }
        try ValidationRules.checkActions(actions, field: "content.actions")
    }

    private func validateUserInfo() throws(NotificationValidationError) {
        let value = JSONValue.object(userInfo)
        try ValidationRules.checkFinite(value, field: "content.userInfo")
        let byteCount = value.jsonText.utf8.count
        guard byteCount <= NotificationLimits.maxUserInfoBytes else {
            throw .userInfoTooLarge(
                field: "content.userInfo",
                byteCount: byteCount,
                limit: NotificationLimits.maxUserInfoBytes
            )
        }
    }
}
