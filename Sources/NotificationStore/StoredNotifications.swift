import FoundationEssentials
import NotificationScheduling

/// The state the daemon keeps across restarts: scheduled notifications, registered categories, and where the
/// responses of delivered notifications go, each by id.
///
/// The three element types are the owner's choice, so the daemon decides what it stores (content, handlers,
/// routes). ``NotificationStore`` keeps each element as one row of its database, the value in the binary form of
/// ``RowFormat``.
package struct StoredNotifications<Payload, Category, Route> {
    /// Notifications waiting for their trigger, with their progress, by notification id.
    package var pending: [String: ScheduledNotification<Payload>]

    /// Registered categories, by category id.
    package var categories: [String: Category]

    /// Where the response of each delivered notification goes, by notification id.
    package var delivered: [String: Route]

    /// Makes a state; empty by default.
    package init(
        pending: [String: ScheduledNotification<Payload>] = [:],
        categories: [String: Category] = [:],
        delivered: [String: Route] = [:]
    ) {
        self.pending = pending
        self.categories = categories
        self.delivered = delivered
    }

    /// Applies one change.
    package mutating func apply(_ change: StoreChange<Payload, Category, Route>) {
        switch change {
        case .schedule(let notification): pending[notification.id] = notification
        case .unschedule(let id): pending[id] = nil
        case .registerCategory(let id, let category): categories[id] = category
        case .removeCategory(let id): categories[id] = nil
        case .deliver(let id, let route): delivered[id] = route
        case .forgetDelivered(let id): delivered[id] = nil
        case .recordEnded, .pruneEnded, .saveFocus:
            // Kept on disk only (``NotificationStore/readHistory(_:)``): the state read at the start holds none.
            break
        }
    }
}

extension StoredNotifications: Sendable where Payload: Sendable, Category: Sendable, Route: Sendable {}
extension StoredNotifications: Equatable where Payload: Equatable, Category: Equatable, Route: Equatable {}

/// One change to ``StoredNotifications``, as ``NotificationStore/apply(_:)-(Change)`` records it.
package enum StoreChange<Payload, Category, Route> {
    /// Adds a scheduled notification, or replaces the one with the same id (after it fired, with its new progress).
    case schedule(ScheduledNotification<Payload>)
    /// Removes a scheduled notification (withdrawn, or fired for the last time).
    case unschedule(id: String)
    /// Adds or replaces a category.
    case registerCategory(id: String, Category)
    /// Removes a category.
    case removeCategory(id: String)
    /// Records where the response of a delivered notification goes.
    case deliver(id: String, Route)
    /// Forgets a delivered notification (closed, or answered).
    case forgetDelivered(id: String)
    /// Adds a notification that ended to the history, or replaces the entry of the same id.
    case recordEnded(EndedRow)
    /// Removes the history entries that ended before a time, then all but the newest ones.
    case pruneEnded(endedBefore: Date, keeping: Int)
    /// Adds or replaces a row of the focus modes (see ``NotificationStore/readFocus(_:id:)``).
    case saveFocus(FocusRow)
}

extension StoreChange: Sendable where Payload: Sendable, Category: Sendable, Route: Sendable {}
extension StoreChange: Equatable where Payload: Equatable, Category: Equatable, Route: Equatable {}

extension StoreChange {
    /// Whether the change deletes a row, freeing its pages.
    var deletesRow: Bool {
        switch self {
        case .unschedule, .removeCategory, .forgetDelivered, .pruneEnded: true
        case .schedule, .registerCategory, .deliver, .recordEnded, .saveFocus: false
        }
    }
}
