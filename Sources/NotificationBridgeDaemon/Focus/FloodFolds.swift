import NotificationModel

/// The notifications that stand for floods (``FloodControl``): one for each source that floods, shown by the daemon
/// under an id of its own, counting the posts folded into it ("Mail: 37 more"). The folded posts themselves are
/// delivered and listed, waiting behind it as a thread's earlier notifications wait behind its newest
/// (``TrackedNotification/Phase/stacked``); this value keeps which wait behind which.
struct FloodFolds: Sendable {
    /// One notification that stands for a flood.
    struct Fold: Sendable {
        /// The daemon's id for it.
        let id: String
        /// Whose flood it shows.
        let source: FloodControl.Source
        /// The folded posts, oldest first.
        var members: [String]
        /// What the server is to show for it now.
        var content: NotificationContent
        /// Whether a job to show ``content`` waits to run: posts that come meanwhile change the content only, and the
        /// server is sent the latest once.
        var isUpdateQueued = false
    }

    /// What a fold offers besides a click on it.
    enum Action: String, Sendable, CaseIterable {
        /// Dismisses every folded post, as if the user had dismissed each.
        case dismissAll = "dismiss-all"

        /// The button's label.
        var label: String {
            switch self {
            case .dismissAll: "Dismiss all"
            }
        }
    }

    /// How the ids of folds begin: not of the form of a posted notification's id (``NotificationIDForm``), so that no
    /// app can name one.
    static let idPrefix = "flood-"

    private var bySource: [FloodControl.Source: String] = [:]
    private var folds: [String: Fold] = [:]
    private var made: UInt64 = 0

    /// Folds post `id` of `source` into the source's fold (made now if it has none on the screen), which is to show
    /// `content`. Returns the fold's id, and whether a job is to show it: none is when one waits to run already.
    mutating func fold(
        _ id: String, of source: FloodControl.Source, showing content: NotificationContent
    ) -> (foldID: String, queuesUpdate: Bool) {
        let foldID: String
        if let existing = bySource[source] {
            foldID = existing
        } else {
            made += 1
            foldID = Self.idPrefix + String(made)
            bySource[source] = foldID
            folds[foldID] = Fold(id: foldID, source: source, members: [], content: content)
        }
        let queuesUpdate = folds[foldID]?.isUpdateQueued == false
        folds[foldID]?.members.append(id)
        folds[foldID]?.content = content
        folds[foldID]?.isUpdateQueued = true
        return (foldID, queuesUpdate)
    }

    /// The content the fold with id `id` is to show now, for the job that shows it; `nil` when it has left the screen
    /// meanwhile.
    mutating func takeUpdate(of id: String) -> NotificationContent? {
        folds[id]?.isUpdateQueued = false
        return folds[id]?.content
    }

    /// The fold with id `id`, taken off: it left the screen, or the user answered it.
    mutating func remove(_ id: String) -> Fold? {
        guard let fold = folds.removeValue(forKey: id) else { return nil }
        bySource[fold.source] = nil
        return fold
    }

    /// What the server is sent for a fold that stands for `count` posts, the newest of them `newest`: silent (a flood
    /// that rang once per post is what it stops), under the app's name and icon, so that the server shows it among the
    /// app's notifications.
    static func content(count: Int, newest: NotificationContent, appName: String) -> NotificationContent {
        let about = newest.threadID == nil ? "" : newest.summaryArgument.map { " from \($0)" } ?? ""
        return NotificationContent(
            title: "\(appName): \(count) more\(about)", body: newest.title, appName: appName,
            desktopEntry: newest.desktopEntry, icon: newest.icon, defaultActionLabel: "Keep in history",
            sound: .none,
            actions: Action.allCases.map {
                NotificationAction(id: $0.rawValue, title: $0.label, activation: .background)
            }
        )
    }
}
