/// Why a ``NotificationServer`` could not do what its owner (a test, the demo) asked.
///
/// Remote clients never see these; they get D-Bus errors as the profile says.
public enum NotificationServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server is not started.
    case notRunning
    /// ``NotificationServer/start(on:profile:)`` was called on a running server.
    case alreadyRunning
    /// Another connection owns `org.freedesktop.Notifications`.
    case nameTaken(owner: String?)
    /// No live notification has this id (never used, or already closed).
    case unknownNotification(id: UInt32)
    /// The notification has no action with this key.
    case unknownAction(id: UInt32, key: String, available: [String])
    /// The action exists but is past the profile's button limit, so no user can click it.
    case actionNotShown(id: UInt32, key: String, maximumButtons: Int)
    /// The profile does not advertise `actions`.
    case actionsUnsupported(server: String)
    /// The profile has no inline reply.
    case inlineReplyUnsupported(server: String)
    /// The notification has no `inline-reply` action, so the server shows no reply field for it.
    case noInlineReply(id: UInt32)
    /// `inline-reply` was invoked as a button on a server that shows it as a text field.
    case inlineReplyIsNotAButton(id: UInt32)
    /// The notification shows its actions as plain buttons, so there is no preselected choice to confirm.
    case noPreselectedAction(id: UInt32)
    /// The profile's notifications do not outlive the process that owns the name: end the server's run and start a new
    /// one.
    case noSeparateService(server: String)

    /// What went wrong and what to do about it.
    public var description: String {
        switch self {
        case .notRunning:
            "the notification server is not running; call start(on:profile:) first"
        case .alreadyRunning:
            "the notification server is already running; end its run() (cancel it, or close its connection) first"
        case .nameTaken(let owner):
            "org.freedesktop.Notifications is owned by \(owner ?? "another connection"); stop that notification "
                + "server or use a private bus"
        case .unknownNotification(let id):
            "no live notification has id \(id): it was never posted or it has closed"
        case .unknownAction(let id, let key, let available):
            "notification \(id) has no action '\(key)'; its actions are "
                + (available.isEmpty ? "none" : available.map { "'\($0)'" }.joined(separator: ", "))
        case .actionNotShown(let id, let key, let maximum):
            "action '\(key)' of notification \(id) is not shown: this server shows at most \(maximum) buttons"
        case .actionsUnsupported(let server):
            "\(server) does not advertise 'actions', so no action can be invoked"
        case .inlineReplyUnsupported(let server):
            "\(server) has no inline reply; use a profile with replyDelivery and the 'inline-reply' capability"
        case .noInlineReply(let id):
            "notification \(id) has no 'inline-reply' action, so it shows no reply field"
        case .inlineReplyIsNotAButton(let id):
            "this server shows 'inline-reply' of notification \(id) as a text field: use reply(id:text:)"
        case .noPreselectedAction(let id):
            "notification \(id) shows its actions as buttons, with none chosen in advance: use invokeAction(id:key:)"
        case .noSeparateService(let server):
            "\(server) has no service apart from what shows the notifications; end its run() and start a new "
                + "server, or use a profile with notificationsOutliveService"
        }
    }
}
