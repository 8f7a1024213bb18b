import FoundationEssentials
import NotificationBridgeAPI

extension ListedNotification {
    /// When it fires next; `nil` for one that is showing or was handed over.
    public var nextFireDate: Date? {
        nextFireSeconds.map { Date(timeIntervalSince1970: TimeInterval($0)) }
    }
}
