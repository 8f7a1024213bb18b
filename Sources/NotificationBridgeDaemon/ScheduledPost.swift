import DBusCore
import NotificationBridge
import NotificationBridgeAPI
import NotificationModel
import NotificationStore

/// What a scheduled notification shows when it fires: what `Post` would have shown, where its responses go, and the
/// connection that posted it (which owns it, as it owns the notifications it shows). The store keeps it whole; the
/// daemon keeps a ``PendingPost`` in memory, and reads this back when the notification fires.
///
/// Its parts are kept out of line, in one immutable box: the daemon copies a fired notification's post as it shows
/// it, hands it to its app or keeps it for a server, and a copy costs one reference, not one for each string and array
/// of the content.
struct ScheduledPost: Sendable {
    private final class Parts: Sendable {
        let content: ImmutableBox<NotificationContent>
        let route: ResponseRoute
        let poster: String
        let wireHints: [UInt8]?
        let wireListing: RowBytes?
        let ifDoNotDisturb: DoNotDisturbChoice?

        init(
            content: NotificationContent, route: ResponseRoute, poster: String, wireHints: [UInt8]?,
            wireListing: RowBytes?, ifDoNotDisturb: DoNotDisturbChoice?
        ) {
            self.content = ImmutableBox(content)
            self.route = route
            self.poster = poster
            self.wireHints = wireHints
            self.wireListing = wireListing
            self.ifDoNotDisturb = ifDoNotDisturb
        }
    }

    private let parts: Parts

    /// What it shows when it fires.
    var content: NotificationContent { parts.content.value }
    /// The same, as the box the daemon's table shares, so that a pending notification's content is held once.
    var contentBox: ImmutableBox<NotificationContent> { parts.content }
    /// Where its responses go.
    var route: ResponseRoute { parts.route }
    /// The unique name of the connection that posted it.
    var poster: String { parts.poster }
    /// `Post`'s `hints`, kept in D-Bus wire form (a message whose body is the one `a{sv}`); `nil` for none.
    var wireHints: [UInt8]? { parts.wireHints }
    /// The keys `ListPending` lists it with, but for its id and next fire date, in wire form
    /// (``DBusWireDictionary``), so that a listing of thousands is copied rather than built; `nil` in what an
    /// earlier version stored.
    var wireListing: RowBytes? { parts.wireListing }
    /// What happens to it while the desktop's do-not-disturb holds it back; `nil` for the default, hold.
    var ifDoNotDisturb: DoNotDisturbChoice? { parts.ifDoNotDisturb }

    init(
        content: NotificationContent, route: ResponseRoute, poster: String, hints: [String: DBusValue] = [:],
        trigger: NotificationTrigger, ifDoNotDisturb: DoNotDisturbChoice? = nil
    ) {
        let wireHints =
            hints.isEmpty
            ? nil
            : try? DBusWire.encodeSignal(
                path: "/", interface: "io.github.NotificationBridge1", member: "Hints", arguments: [.vardict(hints)])
        let wireListing = try? RowBytes(
            NotificationCoding.postEntries(content: content, route: route.listed, trigger: trigger).bytes)
        parts = Parts(
            content: content, route: route, poster: poster, wireHints: wireHints, wireListing: wireListing,
            ifDoNotDisturb: ifDoNotDisturb)
    }

    /// The key its row keeps ``wireListing`` under.
    static var wireListingKey: String { CodingKeys.wireListing.stringValue }

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

/// Stored with the keys `content`, `route`, `poster`, `wireHints`, `wireListing` and, when it is not the default,
/// `ifDoNotDisturb`, as when its parts were its own properties.
extension ScheduledPost: Codable {
    private enum CodingKeys: String, CodingKey {
        case content, route, poster, wireHints, wireListing, ifDoNotDisturb
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        parts = Parts(
            content: try container.decode(NotificationContent.self, forKey: .content),
            route: try container.decode(ResponseRoute.self, forKey: .route),
            poster: try container.decode(String.self, forKey: .poster),
            wireHints: try container.decodeIfPresent([UInt8].self, forKey: .wireHints),
            wireListing: try container.decodeIfPresent(RowBytes.self, forKey: .wireListing),
            ifDoNotDisturb: try container.decodeIfPresent(String.self, forKey: .ifDoNotDisturb).flatMap(
                DoNotDisturbChoice.init(rawValue:)))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(content, forKey: .content)
        try container.encode(route, forKey: .route)
        try container.encode(poster, forKey: .poster)
        try container.encodeIfPresent(wireHints, forKey: .wireHints)
        try container.encodeIfPresent(wireListing, forKey: .wireListing)
        try container.encodeIfPresent(ifDoNotDisturb?.rawValue, forKey: .ifDoNotDisturb)
    }
}

/// The daemon's state on disk: its scheduled notifications (a ``ScheduledPost`` each, read back in memory as a
/// ``PendingPost``), its categories, and where the responses of the notifications it shows go (``DeliveredPost``).
typealias DaemonStore = NotificationStore<PendingPost, NotificationCategory, DeliveredPost>

/// Writes the daemon's changes to its store on a thread of its own (see ``StoreWriter``).
typealias DurableCommits = StoreWriter<PendingPost, NotificationCategory, DeliveredPost>

extension StoreWriter where Payload == PendingPost, Category == NotificationCategory, Route == DeliveredPost {
    /// The whole post of the scheduled notification `id` as the store has it, read once what was submitted for it is
    /// written; `nil` when the store has none (it was never saved, or is withdrawn).
    ///
    /// - Throws: ``NotificationStoreError`` when the row or the file cannot be read, or the store is closed.
    func storedPost(id: String) async throws(NotificationStoreError) -> ScheduledPost? {
        try await storedPayload(ScheduledPost.self, id: id)
    }

    /// The keys every scheduled notification is listed with, as the store keeps them in wire form
    /// (``ScheduledPost/wireListing``), by id: `nil` for one that has no such form (damaged).
    ///
    /// - Throws: ``NotificationStoreError`` when the file cannot be read, or the store is closed.
    func storedListings() async throws(NotificationStoreError) -> [String: RowBytes?] {
        try await storedBytes(inPayloadAt: [ScheduledPost.wireListingKey])
    }
}
