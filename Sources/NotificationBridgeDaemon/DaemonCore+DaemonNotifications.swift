import NotificationBridge

/// The notifications the daemon shows of its own (``DaemonNotification``): the session's responses and closes reach
/// them here, routed by ``NotificationOwner`` where those of every notification are.
extension DaemonCore {
    /// The user answered the daemon's own notification `own` with `actionID`.
    func answered(_ own: DaemonNotification, actionID: String) {
        switch own {
        case .focusDigest: digestAnswered(actionID)
        case .floodFold(let foldID): foldAnswered(foldID, actionID: actionID)
        }
    }

    /// The daemon's own notification `own` left the server, as `closure` tells.
    func closed(_ own: DaemonNotification, _ closure: SessionClosure) {
        switch own {
        case .focusDigest:
            // Closing it is no answer: what it counts stays held, listed by ListPending.
            break
        case .floodFold(let foldID): foldClosed(foldID, closure)
        }
    }
}
