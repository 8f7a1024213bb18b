import FoundationEssentials
import NotificationModel

/// What the daemon keeps on disk of a notification that is showing: enough to route the user's response after a
/// restart of the daemon, when the server still shows it (servers with `persistence`) and broadcasts its signals.
///
/// One is kept for every notification showing, however many: it is forgotten when its notification ends (the server
/// closed it, it was withdrawn), never to make room, so that a click on the oldest one still showing reaches its
/// handler after a restart. The server's own bound on what it shows bounds them.
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
    /// When it was shown: what is left of its timeout after a restart is counted from it.
    var shownAt: Date
    /// Whether it waits behind the newest notification of its thread, which the server shows in its place
    /// (``TrackedNotification/Phase/stacked``): delivered and listed, not on the server, and taken back after a restart
    /// when the one shown in its place is. `nil` for one on the server.
    var isStacked: Bool?
    /// Its place in its thread (``ThreadBook/place(of:)``): a restart rebuilds the thread in this order. `nil` for one
    /// in no thread, and in what older versions kept.
    var threadPlace: UInt64?
    /// What the notifications its thread let go of count for in the thread's summary (``ThreadBook/countLetGo(of:)``),
    /// kept with the one on the server; `nil` for none.
    var threadLetGo: Int?
}
