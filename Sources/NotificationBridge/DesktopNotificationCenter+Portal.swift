import DBusCore
import NotificationModel

/// The portal path of the center: posting, withdrawing and the user's actions through the XDG notification portal.
extension DesktopNotificationCenter {
    /// Listens to the portal's `ActionInvoked`, in order.
    func startListening(to signals: AsyncStream<PortalSignal>) {
        work.yield { [weak self] in
            for await signal in signals {
                guard let self else { return }
                await self.process(signal)
            }
        }
    }

    /// Posts through the portal; posting again with the same id replaces the notification.
    func postThroughPortal(
        _ content: NotificationContent, id: String, hints: [String: DBusValue], handler: ResponseHandler?
    ) async throws -> String {
        guard let portal else { return id }
        let category = content.categoryID.flatMap { categories[$0] }
        // The caller's freedesktop category hint is the one hint with a portal counterpart.
        let serverCategory = hints[PortalWire.freedesktopCategoryHint]?.unwrappedVariant.stringValue
        let encoded = portal.encoder.encode(content, category: category, serverCategory: serverCategory, id: id)
        try await portal.client.addNotification(id: id, encoded.notification)
        // Followed after the call: other calls may have changed what is followed meanwhile.
        self.portal?.router.follow(PortalNotification(id: id, content: content, category: category, encoded: encoded))
        if let handler { notificationHandlers[id] = handler }
        if let badge = content.badge, let entry = content.desktopEntry {
            try? badges.setBadge(badge, desktopEntry: entry)
        }
        logger.debug("posted through the portal", metadata: ["notification.id": "\(id)"])
        return id
    }

    /// Withdraws a notification from the portal.
    func withdrawFromPortal(id: String) async {
        guard let client = portal?.client, portal?.router.forget(id: id) != nil else { return }
        try? await client.removeNotification(id: id)
        eventContinuation.yield(.closed(Closure(id: id, reason: .closedByCall, acted: false, dismissed: false)))
    }

    /// Handles one `ActionInvoked` of the portal.
    func process(_ signal: PortalSignal) async {
        guard let event = portal?.router.handle(signal, categories: categories) else { return }
        switch event {
        case .action(let notification, let action, let token):
            removeAfterAction(notification)
            if let action, action.isTextInput, portal?.encoder.textInputRendering(for: action) == .prompt {
                askForText(notification, action, token: token)
                return
            }
            await deliver(
                notification, action, actionID: action?.id ?? NotificationResponse.defaultActionID, text: nil,
                token: token)
        case .reply(let notification, let action, let text, let token):
            removeAfterAction(notification)
            await deliver(notification, action, actionID: action.id, text: text, token: token)
        }
    }

    /// The portal has no close signal, and the desktop removes a notification once the user acted on it: the center
    /// withdraws it too (unless it is resident) and reports it closed.
    private func removeAfterAction(_ notification: PortalNotification) {
        guard !notification.content.isResident, let client = portal?.client else { return }
        let id = notification.id
        work.yield { try? await client.removeNotification(id: id) }
        eventContinuation.yield(.closed(Closure(id: id, reason: .undefined, acted: true, dismissed: false)))
    }
}
