import DBusCore

/// A signal of the notification server: what a server emits and a client decodes.
package enum ServerSignal: Sendable, Hashable {
    /// `ActionInvoked(u id, s action_key)`.
    case actionInvoked(id: UInt32, key: String)
    /// `NotificationReplied(u id, s text)`: the text of an inline reply (servers with `inline-reply`).
    case replied(id: UInt32, text: String)
    /// `ActivationToken(u id, s activation_token)`, sent before the `ActionInvoked` it belongs to.
    case activationToken(id: UInt32, token: String)
    /// `NotificationClosed(u id, u reason)`.
    case closed(id: UInt32, reason: NotificationCloseReason)

    /// The signals' member names.
    package enum Member: String, Sendable, CaseIterable {
        /// ``ServerSignal/actionInvoked(id:key:)``.
        case actionInvoked = "ActionInvoked"
        /// ``ServerSignal/replied(id:text:)``.
        case notificationReplied = "NotificationReplied"
        /// ``ServerSignal/activationToken(id:token:)``.
        case activationToken = "ActivationToken"
        /// ``ServerSignal/closed(id:reason:)``.
        case notificationClosed = "NotificationClosed"
    }

    /// The server's id of the notification the signal is about.
    package var serverID: UInt32 {
        switch self {
        case .actionInvoked(let id, _), .replied(let id, _), .activationToken(let id, _), .closed(let id, _): id
        }
    }

    /// The signal's member name.
    package var member: Member {
        switch self {
        case .actionInvoked: .actionInvoked
        case .replied: .notificationReplied
        case .activationToken: .activationToken
        case .closed: .notificationClosed
        }
    }

    /// The signal's arguments, typed as the specification gives them.
    package var arguments: [DBusValue] {
        switch self {
        case .actionInvoked(let id, let text), .replied(let id, let text), .activationToken(let id, let text):
            [.uint32(id), .string(text)]
        case .closed(let id, let reason):
            [.uint32(id), .uint32(reason.rawValue)]
        }
    }

    /// Decodes a signal of `org.freedesktop.Notifications`; `nil` for other members or mistyped arguments.
    package init?(_ signal: DBusSignal) {
        guard signal.arguments.count == 2, case .uint32(let id) = signal.arguments[0],
            let member = Member(rawValue: signal.member)
        else { return nil }
        switch (member, signal.arguments[1]) {
        case (.actionInvoked, .string(let key)):
            self = .actionInvoked(id: id, key: key)
        case (.notificationReplied, .string(let text)):
            self = .replied(id: id, text: text)
        case (.activationToken, .string(let token)):
            self = .activationToken(id: id, token: token)
        case (.notificationClosed, .uint32(let reason)):
            self = .closed(id: id, reason: NotificationCloseReason(code: reason))
        default:
            return nil
        }
    }
}
