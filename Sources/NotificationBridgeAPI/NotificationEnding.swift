/// How a delivered notification ended, as its history entry says (`ListHistory`, key `ended`).
public enum NotificationEnding: String, Sendable, Hashable, CaseIterable, Codable {
    /// The user chose one of its actions, or its body; the entry's `response-action` says which.
    case responded
    /// The user dismissed it.
    case dismissed
    /// Its timeout passed, or the server expired it.
    case expired
    /// The notification server closed it without the user or the app asking.
    case closed
    /// Its app withdrew it (`Withdraw`, `WithdrawAll`).
    case withdrawn
    /// A newer notification with the same id took its place.
    case replaced
    /// The notification server it showed on went away (or restarted) and it did not come back.
    case serverGone = "server-gone"

    /// Whether it can still be answered (`Act`) or shown again (`Present`): it ended without a response and without
    /// the user or its app putting it away.
    public var isAnswerable: Bool {
        switch self {
        case .expired, .closed, .serverGone: true
        case .responded, .dismissed, .withdrawn, .replaced: false
        }
    }

    /// Why a notification that ended this way cannot be answered, and what to do instead; `nil` when it can.
    public var refusal: String? {
        switch self {
        case .expired, .closed, .serverGone: nil
        case .responded: "was answered already; each notification takes one answer"
        case .dismissed: "was dismissed by the user, who chose not to answer it; post a new notification to ask again"
        case .withdrawn: "was withdrawn by its app, which no longer asks for an answer; answer in the app instead"
        case .replaced:
            "was replaced by a newer notification with the same id; answer that one (ListDelivered or "
                + "ListHistory shows it)"
        }
    }
}
