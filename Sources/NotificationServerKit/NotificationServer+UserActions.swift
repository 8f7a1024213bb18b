import DBusCore

/// What a person does to a notification on the desktop, performed by a test or a UI. Each emits exactly the signals
/// the profile's server would emit, in its order, to the sender or to everyone as the profile says.
extension NotificationServer {
    /// Invokes an action, as clicking its button (or the body, for `default`) would.
    ///
    /// Emits, as the profile says: `ActivationToken(id, token)`; `ActionInvoked(id, key)`; for Budgie-like profiles a
    /// second `ActionInvoked(id, "default")`; then `NotificationClosed(id, reason)` unless the profile leaves the
    /// notification up or it is resident.
    ///
    /// - Parameters:
    ///   - activationToken: the token to send when the profile sends one; `nil` makes a unique one. Ignored by
    ///     profiles that send no token.
    /// - Throws: ``NotificationServerError``: the server is not running, the id is not live, the profile shows no
    ///   actions, the notification has no such action, the action is past the profile's button limit, or it is
    ///   `inline-reply` on a server that shows a reply field instead (use ``reply(id:text:)``).
    public func invokeAction(id: UInt32, key: String, activationToken: String? = nil) throws {
        let notification = try liveNotification(id: id)
        guard profile.supportsActions else {
            throw NotificationServerError.actionsUnsupported(server: profile.serverName)
        }
        guard notification.action(key) != nil else {
            throw NotificationServerError.unknownAction(id: id, key: key, available: notification.actions.map(\.key))
        }
        if key == "inline-reply" && profile.supportsInlineReply {
            throw NotificationServerError.inlineReplyIsNotAButton(id: id)
        }
        if let maximum = profile.maximumButtons, let position = buttons(of: notification).firstIndex(of: key),
            position >= maximum
        {
            throw NotificationServerError.actionNotShown(id: id, key: key, maximumButtons: maximum)
        }
        let delivery = profile.signalDelivery
        if profile.sendsActivationTokenBeforeAction {
            let token = activationToken ?? makeActivationToken(for: id)
            try emit(.activationToken(id: id, token: token), about: notification, delivery: delivery)
        }
        try emit(.actionInvoked(id: id, key: key), about: notification, delivery: delivery)
        if profile.extraDefaultAfterButton, key != "default", notification.action("default") != nil {
            try emit(.actionInvoked(id: id, key: "default"), about: notification, delivery: delivery)
        }
        if let reason = profile.closeAfterAction, !notification.isResident {
            end(id: id, reason: reason)
        }
    }

    /// Sends typed text from the notification's inline reply field, as pressing its send button would.
    ///
    /// Emits `NotificationReplied(id, text)` as the profile's ``NotificationServerProfile/replyDelivery`` says, then
    /// `NotificationClosed` with its reason unless it has none or the notification is resident.
    ///
    /// - Throws: ``NotificationServerError``: the server is not running, the id is not live, the profile has no
    ///   inline reply, or the notification has no `inline-reply` action; `DBusFailure` (`InvalidArgs`) for text
    ///   holding a NUL character.
    public func reply(id: UInt32, text: String) throws {
        let notification = try liveNotification(id: id)
        guard let replyDelivery = profile.replyDelivery, profile.supportsInlineReply else {
            throw NotificationServerError.inlineReplyUnsupported(server: profile.serverName)
        }
        guard notification.action("inline-reply") != nil else {
            throw NotificationServerError.noInlineReply(id: id)
        }
        try emit(.replied(id: id, text: text), about: notification, delivery: replyDelivery.delivery)
        if replyDelivery.invokesAction {
            try emit(
                .actionInvoked(id: id, key: "inline-reply"), about: notification, delivery: profile.signalDelivery)
        }
        if let reason = replyDelivery.closeReason, !notification.isResident {
            end(id: id, reason: reason)
        }
    }

    /// Closes a notification as the user's close button would: `NotificationClosed(id, reason)` with the profile's
    /// ``NotificationServerProfile/closeButtonReason`` (2, dismissed, but for mate-notification-daemon's 1).
    ///
    /// - Throws: ``NotificationServerError`` when the server is not running or the id is not live.
    public func dismiss(id: UInt32) throws {
        end(id: try liveNotification(id: id).id, reason: profile.closeButtonReason)
    }

    /// The action a single confirming click picks, where the profile shows the actions as a list with the first one
    /// chosen (``NotificationServerProfile/preselectsFirstButtonAbove``); `nil` where they are plain buttons.
    public func preselectedAction(of notification: ServedNotification) -> String? {
        guard let threshold = profile.preselectsFirstButtonAbove else { return nil }
        let buttons = buttons(of: notification)
        return buttons.count > threshold ? buttons.first : nil
    }

    /// Confirms the choice the server made in advance, as a click on OK beside lxqt-notificationd's combo box does: the action ``preselectedAction(of:)`` names is invoked.
    ///
    /// - Throws: ``NotificationServerError/noPreselectedAction(id:)`` where the actions are plain buttons, and what
    ///   ``invokeAction(id:key:activationToken:)`` throws.
    public func confirmPreselectedAction(id: UInt32) throws {
        let notification = try liveNotification(id: id)
        guard let key = preselectedAction(of: notification) else {
            throw NotificationServerError.noPreselectedAction(id: id)
        }
        try invokeAction(id: id, key: key)
    }

    /// Lets a notification's timeout pass now, without waiting for its timer.
    ///
    /// With ``ExpiryBehavior/close`` it ends with `NotificationClosed(id, 1)`; with
    /// ``ExpiryBehavior/closeTransientOnly`` a notification that is not transient stays, with no signal.
    ///
    /// - Returns: whether the notification closed.
    /// - Throws: ``NotificationServerError`` when the server is not running or the id is not live.
    @discardableResult
    public func expire(id: UInt32) throws -> Bool {
        expire(try liveNotification(id: id))
    }

    /// The keys of the buttons the server shows for `notification`, in order: every action except `default` (the
    /// body click) and, on a server with a reply field, `inline-reply`. The profile's button limit applies to these.
    public func buttons(of notification: ServedNotification) -> [String] {
        notification.actions.map(\.key).filter { key in
            key != "default" && !(key == "inline-reply" && profile.supportsInlineReply)
        }
    }
}
