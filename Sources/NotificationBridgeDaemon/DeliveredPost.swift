import FoundationEssentials
import NotificationModel

/// What the daemon keeps on disk of a notification that is showing: enough to route the user's response after a
/// restart of the daemon, when the server still shows it (servers with `persistence`) and broadcasts its signals.
struct DeliveredPost: Codable, Sendable {
    /// The server's id for it.
    var serverID: UInt32
    /// The server instance that gave ``serverID``: after a restart of the daemon the route is taken back only if the
    /// same instance still runs. `nil` in what older versions kept, whose routes are never taken back.
    var server: ServerInstance?
    var content: NotificationContent
    var route: ResponseRoute
    /// The connection that posted it; after a restart it is gone, and responses go to the app attached instead.
    var poster: String
    var reportsDismissal: Bool
    /// When it was shown: the oldest are forgotten first beyond ``maximumKept``.
    var shownAt: Date

    /// How many showing notifications are kept on disk; older ones are forgotten (their responses are lost after a
    /// restart, not before).
    static let maximumKept = 512
}
