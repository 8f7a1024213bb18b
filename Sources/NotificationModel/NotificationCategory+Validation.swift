extension NotificationCategory {
    /// Checks that the category can be registered.
    ///
    /// Rules: ``id`` is a valid identifier; ``actions`` holds at most ``NotificationLimits/maxActionsPerCategory``
    /// valid actions with distinct ids, at most one of them a text-input action; ``minimalActions`` holds at most
    /// ``NotificationLimits/maxMinimalActions`` valid actions with distinct ids, each the id of one of ``actions``;
    /// ``snoozeIntervals`` pass ``SnoozeInterval/validate(_:field:)``; a category that reports snoozes has no action
    /// with the id ``NotificationResponse/snoozeActionID``.
    ///
    /// - Throws: ``NotificationValidationError`` naming the field (`category.id`, `category.actions[1].id`, …).
    public func validate() throws(NotificationValidationError) {
        try validate(at: "category")
    }

    /// Checks a set of categories registered together: each category, distinct ids, and at most
    /// ``NotificationLimits/maxCategories`` of them.
    ///
    /// - Throws: ``NotificationValidationError`` naming the field (`categories[3].id`, …).
    public static func validate(
        _ categories: some Collection<NotificationCategory>
    ) throws(NotificationValidationError) {
        guard categories.count <= NotificationLimits.maxCategories else {
            throw .tooManyCategories(
                field: "categories",
                count: categories.count,
                limit: NotificationLimits.maxCategories
            )
        }
        var seen: Set<String> = []
        for (index, category) in categories.enumerated() {
            let path = "categories[\(index)]"
            try category.validate(at: path)
            guard seen.insert(category.id).inserted else {
                throw .duplicateCategoryID(field: "\(path).id", id: category.id)
            }
        }
    }

    private func validate(at path: String) throws(NotificationValidationError) {
        try ValidationRules.checkIdentifier(id, field: "\(path).id")
        guard actions.count <= NotificationLimits.maxActionsPerCategory else {
            throw .tooManyActions(
                field: "\(path).actions",
                count: actions.count,
                limit: NotificationLimits.maxActionsPerCategory
            )
        }
        try ValidationRules.checkActions(actions, field: "\(path).actions")
        guard minimalActions.count <= NotificationLimits.maxMinimalActions else {
            throw .tooManyMinimalActions(
                field: "\(path).minimalActions",
                count: minimalActions.count,
                limit: NotificationLimits.maxMinimalActions
            )
        }
        try ValidationRules.checkActions(minimalActions, field: "\(path).minimalActions")
        let actionIDs = Set(actions.map(\.id))
        for (index, action) in minimalActions.enumerated() where !actionIDs.contains(action.id) {
            throw .minimalActionNotInActions(field: "\(path).minimalActions[\(index)].id", id: action.id)
        }
        if let summaryFormat {
            try ValidationRules.checkNonEmpty(
                summaryFormat, field: "\(path).summaryFormat", limit: NotificationLimits.maxTitleBytes)
            if let problem = ThreadSummary.check(summaryFormat) {
                throw .invalidSummary(field: "\(path).summaryFormat", problem: problem)
            }
        }
        try SnoozeInterval.validate(snoozeIntervals, field: "\(path).snoozeIntervals")
        if reportsSnooze, let index = actions.firstIndex(where: { $0.id == NotificationResponse.snoozeActionID }) {
            throw .snoozeActionIDTaken(field: "\(path).actions[\(index)].id")
        }
    }
}
