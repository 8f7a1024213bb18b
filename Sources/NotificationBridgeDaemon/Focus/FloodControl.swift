import FoundationEssentials

/// Flood control: an app (or one thread of an app) that posts more than ``limit`` notifications within ``window`` has
/// the excess folded into one notification that counts them, until it has been quiet for a whole window. Every post
/// is still listed and kept in the history; only what the server is asked to show changes.
///
/// A value that keeps the recent posts of each source, and decides each post as it comes, from the instant given:
/// it reads no clock.
struct FloodControl: Sendable, Hashable {
    /// Where posts are counted: an app, or one thread of it.
    struct Source: Sendable, Hashable {
        /// The app, by the name its settings go under.
        var app: String
        /// The thread's id, if the post has one: a thread is counted apart from the rest of its app.
        var thread: String?
    }

    /// What becomes of one post.
    enum Decision: Sendable, Hashable {
        /// Shown as posted.
        case show
        /// Folded: the source's folded notification is to say that `count` were folded so far.
        case fold(count: Int)
    }

    /// The most posts of one source shown within ``window``.
    let limit: Int
    /// The span the posts are counted in.
    let window: Duration

    private var recent: [Source: [Date]] = [:]
    private var folded: [Source: Int] = [:]

    /// Flood control that shows at most `limit` posts of one source within `window`.
    ///
    /// - Throws: ``FocusError`` when `limit` is under 1 or `window` is not positive.
    init(limit: Int, window: Duration) throws(FocusError) {
        guard limit >= 1 else {
            throw FocusError("a flood limit of \(limit) would fold every notification; give 1 or more")
        }
        guard window > .zero else { throw FocusError("a flood window must be longer than nothing, such as 10s") }
        self.limit = limit
        self.window = window
    }

    /// Decides the post of `source` made at `date`.
    mutating func admit(_ source: Source, at date: Date) -> Decision {
        let seconds = Double(window.components.seconds) + Double(window.components.attoseconds) * 1e-18
        let since = date.addingTimeInterval(-seconds)
        var posts = (recent[source] ?? []).filter { $0 > since }
        let flooding = folded[source] != nil && !posts.isEmpty
        posts.append(date)
        recent[source] = posts
        guard flooding || posts.count > limit else {
            folded[source] = nil
            return .show
        }
        let count = (folded[source] ?? 0) + 1
        folded[source] = count
        return .fold(count: count)
    }
}
