import FoundationEssentials
import NotificationModel

/// Flood control: an app (or one thread of an app) that posts more than its limit's ``FloodLimit/count`` notifications
/// within its ``FloodLimit/window`` (the user's setting for the app) has the excess folded into one notification that
/// counts them, until it has been quiet for a whole window. Every post is still listed and kept in the history; only
/// what the server is asked to show changes.
///
/// A value that keeps a few numbers for each source, and decides each post as it comes, from the instant given: it
/// reads no clock. Below the limit a decision allocates nothing (a source seen before is counted in place), since it
/// is taken on every `Post`.
struct FloodControl: Sendable {
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

    /// What is known of one source's recent posts.
    private struct Tally: Sendable {
        /// When the window its posts are counted in began.
        var windowStart: Date
        /// How many it posted in that window.
        var inWindow: Int
        /// Its last post.
        var last: Date
        /// The window it was counted in, in seconds.
        var window: Double
        /// Whether it floods: its posts are folded until a whole window passes without one.
        var flooding: Bool
        /// How many were folded into the notification that shows the flood now.
        var folded: Int
    }

    private var tallies: [Source: Tally] = [:]

    /// The most sources kept before those quiet for longer than their window are forgotten.
    private static let keptSources = 256

    /// Decides the post of `source` made at `date`, under `limit` (its app's, from the user's settings).
    mutating func admit(_ source: Source, at date: Date, limit: FloodLimit) -> Decision {
        guard var tally = tallies[source] else {
            if tallies.count >= Self.keptSources { forgetQuiet(at: date) }
            tallies[source] = Tally(
                windowStart: date, inWindow: 1, last: date, window: limit.seconds, flooding: false, folded: 0)
            return .show
        }
        let quiet = date.timeIntervalSince(tally.last) >= limit.seconds
        if quiet { tally.flooding = false }
        if date.timeIntervalSince(tally.windowStart) >= limit.seconds {
            (tally.windowStart, tally.inWindow) = (date, 0)
        }
        tally.inWindow += 1
        (tally.last, tally.window) = (date, limit.seconds)
        if tally.inWindow > limit.count { tally.flooding = true }
        tally.folded = tally.flooding ? tally.folded + 1 : 0
        tallies[source] = tally
        return tally.flooding ? .fold(count: tally.folded) : .show
    }

    /// The notification that showed the flood of `source` left the screen: a post that still floods starts a new one,
    /// counted from 1.
    mutating func foldEnded(_ source: Source) {
        tallies[source]?.folded = 0
    }

    /// Forgets the sources that have been quiet for longer than their window: their next post starts afresh anyway.
    private mutating func forgetQuiet(at date: Date) {
        tallies = tallies.filter { date.timeIntervalSince($0.value.last) < $0.value.window }
    }
}
