/// The threads of the daemon's delivered notifications: which notifications of one app share a thread id, oldest
/// first. Only ids; the table keeps the notifications themselves.
///
/// Notifications with the same ``NotificationContent/threadID`` posted under the same settings app (the desktop
/// entry, else the app name; a sandboxed app's are its app id or its own desktop entries) form a thread. On a server
/// that shows every notification on its own, the newest of a thread is the one on the server and the earlier ones
/// wait behind it (``TrackedNotification/Phase/stacked``); on one that groups notifications itself, each is shown and
/// the book only counts them for the summary.
///
/// A thread keeps at most ``maximumMembers`` notifications: the server does not bound those waiting behind the one it
/// shows, so the book does. The oldest one beyond goes (the daemon ends it), and the summary goes on counting it.
struct ThreadBook: Sendable {
    /// The most notifications one thread keeps.
    static let maximumMembers = 64

    /// A thread: the app it belongs to and its id.
    struct Key: Hashable, Sendable {
        /// The settings app of its notifications.
        var app: String
        /// Their thread id.
        var thread: String
    }

    /// Each thread's notifications, oldest first.
    private var members: [Key: [String]] = [:]
    /// The thread of each notification in one.
    private var keys: [String: Key] = [:]
    /// What the notifications a thread let go of beyond ``maximumMembers`` counted for in its summary.
    private var letGo: [Key: Int] = [:]
    /// Each notification's place in the order of joining: kept on disk with it, so that a restart of the daemon
    /// rebuilds its thread in the same order.
    private var places: [String: UInt64] = [:]
    /// The place the next notification to join takes.
    private var nextPlace: UInt64 = 0

    /// The thread notification `id` belongs to, or `nil`.
    func key(of id: String) -> Key? { keys[id] }

    /// The notifications of a thread, oldest first.
    func members(of key: Key) -> [String] { members[key] ?? [] }

    /// The newest notification of a thread.
    func newest(of key: Key) -> String? { members[key]?.last }

    /// How many threads there are.
    var count: Int { members.count }

    /// The place of notification `id` in the order of joining (later joins have higher places), or `nil` when it is
    /// in no thread.
    func place(of id: String) -> UInt64? { places[id] }

    /// What the notifications thread `key` let go of count for in its summary.
    func countLetGo(of key: Key) -> Int { letGo[key] ?? 0 }

    /// Adds notification `id` to a thread as its newest; returns the one that was newest before, and the oldest one
    /// when the thread had ``maximumMembers`` already: that one is out of the thread, for the caller to end. A
    /// notification already in a thread keeps its place (a replacement updates it where it is).
    ///
    /// - Parameters:
    ///   - place: the place it had before a restart of the daemon (``place(of:)``); a new one when `nil`. Those
    ///     brought back join in the order of their places.
    ///   - countOfOldest: what the oldest notification counts for in the summary, kept if it goes.
    mutating func join(
        _ id: String, _ key: Key, at place: UInt64? = nil, countOfOldest: (String) -> Int = { _ in 1 }
    ) -> (previous: String?, letGo: String?) {
        guard keys[id] == nil else { return (nil, nil) }
        let previous = members[key]?.last
        members[key, default: []].append(id)
        keys[id] = key
        let place = place ?? nextPlace
        places[id] = place
        nextPlace = max(nextPlace, place + 1)
        guard let ids = members[key], ids.count > Self.maximumMembers, let oldest = ids.first else {
            return (previous, nil)
        }
        letGo[key, default: 0] += countOfOldest(oldest)
        members[key]?.removeFirst()
        keys[oldest] = nil
        places[oldest] = nil
        return (previous, oldest)
    }

    /// Sets what the notifications thread `key` let go of count for in its summary, as it was before a restart of the
    /// daemon (``countLetGo(of:)``); for a thread with members only.
    mutating func restoreLetGo(_ count: Int, of key: Key) {
        guard members[key] != nil, count > 0 else { return }
        letGo[key] = count
    }

    /// Takes notification `id` out of its thread; returns the thread and whether `id` was its newest, or `nil` when it
    /// was in none.
    @discardableResult
    mutating func leave(_ id: String) -> (key: Key, wasNewest: Bool)? {
        guard let key = keys.removeValue(forKey: id), var ids = members[key] else { return nil }
        places[id] = nil
        let wasNewest = ids.last == id
        ids.removeAll { $0 == id }
        members[key] = ids.isEmpty ? nil : ids
        if ids.isEmpty { letGo[key] = nil }
        return (key, wasNewest)
    }

    /// Ends a thread: returns its notifications, oldest first.
    mutating func removeAll(_ key: Key) -> [String] {
        let ids = members.removeValue(forKey: key) ?? []
        letGo[key] = nil
        for id in ids {
            keys[id] = nil
            places[id] = nil
        }
        return ids
    }
}
