extension NotificationAction {
    /// Checks that the action can be shown and answered.
    ///
    /// Rules: ``id`` is a valid identifier (ASCII letters, digits and `-`, `_`, `.`, `:`, at most
    /// ``NotificationLimits/maxIdentifierLength`` bytes) and not a ``ReservedActionID``; ``title`` is not empty; the
    /// title and the text-input labels fit in ``NotificationLimits/maxTitleBytes`` and contain no NUL.
    ///
    /// - Throws: ``NotificationValidationError`` naming the field (`action.id`, `action.title`, …).
    public func validate() throws(NotificationValidationError) {
        try validate(at: "action")
    }

    /// Checks the action, naming fields below `path` (such as `category.actions[2]`).
    func validate(at path: String) throws(NotificationValidationError) {
        try ValidationRules.checkIdentifier(id, field: "\(path).id")
        guard !ReservedActionID.isReserved(id) else { throw .reservedActionID(field: "\(path).id", id: id) }
        guard !title.isEmpty else { throw .emptyTitle(field: "\(path).title") }
        try ValidationRules.checkText(title, field: "\(path).title", limit: NotificationLimits.maxTitleBytes)
        if case .textInput(let textInput) = behavior {
            // Unlike other optional texts, an empty label here is harmless: servers fall back to their own.
            if let submitButtonTitle = textInput.submitButtonTitle {
                try ValidationRules.checkText(
                    submitButtonTitle,
                    field: "\(path).behavior.submitButtonTitle",
                    limit: NotificationLimits.maxTitleBytes
                )
            }
            if let placeholder = textInput.placeholder {
                try ValidationRules.checkText(
                    placeholder,
                    field: "\(path).behavior.placeholder",
                    limit: NotificationLimits.maxTitleBytes
                )
            }
        }
    }
}
