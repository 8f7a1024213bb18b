import DBusCore
import NotificationModel

/// A notification as the daemon lists it (`ListPending`, `ListDelivered`, the `Fired` signal): its id, the keys it
/// was posted with, and when it fires next. Keys in ``ListedKeys``.
public struct ListedNotification: Sendable, Hashable {
    /// The daemon's id for it.
    public var id: String
    /// What was posted: content, route and, for a pending one, its schedule.
    public var post: NotificationPost
    /// When it fires next, in seconds since 1970; `nil` for one that is showing or was handed over.
    public var nextFireSeconds: Int64?
    /// Every key as received (variants removed), scheduling keys included for pending ones.
    public var entries: [String: DBusValue]
    /// Whether the server shows it: `false` for a delivered notification of a thread that waits behind the thread's
    /// newest, which the server shows in its place.
    public var isOnScreen = true

    /// Describes a listed notification.
    public init(id: String, post: NotificationPost, nextFireSeconds: Int64? = nil) {
        self.id = id
        self.post = post
        self.nextFireSeconds = nextFireSeconds
        entries = [:]
        entries = value.stringKeyedEntries?.mapValues(\.unwrappedVariant) ?? [:]
    }

    /// Reads one `a{sv}` of the daemon's lists; `nil` when it has no id.
    ///
    /// Keys this version does not know (from a newer daemon) are kept in ``entries``; the post then holds the
    /// title, the body and the app name only.
    public init?(_ value: DBusValue) {
        // What this version's daemon lists: read once, as Post's keys are read.
        if let reader = try? VariantDictionary(value, place: "listed notification", keys: ListedKeys.all),
            let id = try? reader.decode(ListedKeys.id), let post = try? NotificationPost(reading: reader)
        {
            self.id = id
            self.post = post
            nextFireSeconds = (try? reader.decode(ListedKeys.nextFireDate)) ?? nil
            isOnScreen = ((try? reader.decode(ListedKeys.onScreen)) ?? nil) ?? true
            entries = reader.entries
            return
        }
        guard let received = WireEntries(value), let id = received[ListedKeys.id] else { return nil }
        self.id = id
        nextFireSeconds = received[ListedKeys.nextFireDate]
        entries = received.values
        var postKeys = received.values
        postKeys[ListedKeys.id.name] = nil
        postKeys[ListedKeys.nextFireDate.name] = nil
        postKeys[ListedKeys.nextFireDateISO8601.name] = nil
        postKeys[ListedKeys.onScreen.name] = nil
        isOnScreen = received[ListedKeys.onScreen] ?? true
        if let post = try? NotificationPost(decoding: .vardict(postKeys)) {
            self.post = post
        } else {
            post = NotificationPost(
                content: NotificationContent(
                    title: received[PostKeys.title] ?? "", body: received[PostKeys.body] ?? "",
                    appName: received[PostKeys.appName]))
        }
    }

    /// The title.
    public var title: String { post.content.title }
    /// The text below the title.
    public var body: String { post.content.body }
    /// The app it belongs to.
    public var appName: String? { post.content.appName }
    /// How much it may interrupt the user.
    public var interruptionLevel: NotificationInterruptionLevel { post.content.interruptionLevel }

    /// The `a{sv}` the daemon lists.
    public var value: DBusValue {
        var entries = post.entries
        entries[ListedKeys.id] = id
        entries[ListedKeys.nextFireDate] = nextFireSeconds
        entries[ListedKeys.nextFireDateISO8601] = nextFireSeconds.map { ISO8601Text.utc(seconds: $0) }
        if !isOnScreen { entries[ListedKeys.onScreen] = false }
        return entries.value
    }
}
