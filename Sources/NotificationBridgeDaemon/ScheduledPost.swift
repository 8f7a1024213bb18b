import DBusCore
import NotificationBridge
import NotificationModel

/// What the daemon keeps of a scheduled notification until it fires: what `Post` would have shown, where its
/// responses go, and the connection that posted it (which owns it, as it owns the notifications it shows).
struct ScheduledPost: Codable, Sendable {
    var content: NotificationContent
    var route: ResponseRoute
    var poster: String
    /// `Post`'s `hints`, kept in D-Bus wire form (a message whose body is the one `a{sv}`); `nil` for none.
    var wireHints: [UInt8]? = nil
    /// The keys `ListPending` lists it with, but for its id and next fire date, in wire form
    /// (``DBusWireDictionary``), so that a listing of thousands is copied rather than built; `nil` in what an
    /// earlier version stored.
    var wireListing: RowBytes? = nil

    init(
        content: NotificationContent, route: ResponseRoute, poster: String, hints: [String: DBusValue] = [:],
        trigger: NotificationTrigger
    ) {
        self.content = content
        self.route = route
        self.poster = poster
        if !hints.isEmpty {
            wireHints = try? DBusWire.encodeSignal(
                path: "/", interface: "io.github.NotificationBridge1", member: "Hints", arguments: [.vardict(hints)])
        }
        wireListing = try? RowBytes(
            NotificationCoding.postEntries(content: content, route: route.listed, trigger: trigger).bytes)
    }

    /// The hints to send when it fires.
    var hints: [String: DBusValue] {
        guard let wireHints, let body = try? DBusWire.decodeArguments(from: wireHints),
            case .dictionary(_, _, let entries)? = body.arguments.first
        else { return [:] }
        var hints: [String: DBusValue] = [:]
        for entry in entries {
            guard let name = entry.key.stringValue else { continue }
            if case .variant(let inner) = entry.value { hints[name] = inner } else { hints[name] = entry.value }
        }
        return hints
    }
}

/// What the daemon keeps of a notification that is showing, so that after a restart the response to it still reaches
/// its command, its app, or the connection attached as its app (see ``DeliveredPost``).
typealias DaemonStore = NotificationStore<ScheduledPost, NotificationCategory, DeliveredPost>
