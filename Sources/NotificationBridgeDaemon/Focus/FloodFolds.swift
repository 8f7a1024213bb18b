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
        /// The app's name, as the fold shows it.
        let appName: String
        /// The folded posts still waiting behind it, oldest first, each with its title as the settings shaped it (a
        /// private lock screen's neutral line): the fold shows the newest one's.
        var waiting: [(id: String, title: String)]
        /// The newest folded post, as the settings shaped it: the fold shows its app's icon and thread.
        var newest: NotificationContent

        /// The ids of the folded posts still waiting behind it, oldest first.
        var members: [String] { waiting.map(\.id) }
        /// Whether a job to show ``content`` waits to run: posts that come meanwhile change the fold only, and the
        /// server is sent the latest once.
        var isUpdateQueued = false

        /// What the server is sent: silent (a flood that rang once per post is what it stops), under the app's name
        /// and icon, so that the server shows it among the app's notifications; "Mail: 37 more", with the newest
        /// one's title.
        var content: NotificationContent {
            let about = newest.threadID == nil ? "" : newest.summaryArgument.map { " from \($0)" } ?? ""
            return NotificationContent(
                title: "\(appName): \(waiting.count) more\(about)", body: waiting.last?.title ?? "", appName: appName,
                desktopEntry: newest.desktopEntry, icon: newest.icon, defaultActionLabel: "Keep in history",
                sound: .none,
                actions: Action.allCases.map {
                    NotificationAction(id: $0.rawValue, title: $0.label, activation: .background)
                })
        }
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

    /// What became of a fold when one of its posts left it.
    enum Leaving: Sendable, Hashable {
        /// Others still wait behind it: it is to show the new count (a job is to show it unless one waits already).
        case counted(foldID: String, queuesUpdate: Bool)
        /// It was the last: the fold has nothing to stand for, and leaves the screen.
        case emptied(foldID: String, source: FloodControl.Source)
    }

    /// How the ids of folds begin: not of the form of a posted notification's id (``NotificationIDForm``), so that no
    /// app can name one.
    static let idPrefix = "flood-"

    private var bySource: [FloodControl.Source: String] = [:]
    private var folds: [String: Fold] = [:]
    /// The fold each folded post waits behind.
    private var foldOf: [String: String] = [:]
    private var made: UInt64 = 0

    /// Folds post `id` of `source` (of the app named `appName`, `newest` as the settings shaped it) into the source's
    /// fold, made now if it has none on the screen. Returns the fold's id, and whether a job is to show it: none is
    /// when one waits to run already.
    mutating func fold(
        _ id: String, of source: FloodControl.Source, appName: String, newest: NotificationContent
    ) -> (foldID: String, queuesUpdate: Bool) {
        let foldID: String
        if let existing = bySource[source] {
            foldID = existing
        } else {
            made += 1
            foldID = Self.idPrefix + String(made)
            bySource[source] = foldID
            folds[foldID] = Fold(id: foldID, source: source, appName: appName, waiting: [], newest: newest)
        }
        let queuesUpdate = folds[foldID]?.isUpdateQueued == false
        folds[foldID]?.waiting.append((id, newest.title))
        folds[foldID]?.newest = newest
        folds[foldID]?.isUpdateQueued = true
        foldOf[id] = foldID
        return (foldID, queuesUpdate)
    }

    /// What the fold with id `id` is to show now, for the job that shows it; `nil` when it has left the screen
    /// meanwhile.
    mutating func takeUpdate(of id: String) -> NotificationContent? {
        folds[id]?.isUpdateQueued = false
        return folds[id]?.content
    }

    /// Folded post `id` leaves its fold (it was withdrawn); `nil` when it waits behind none.
    mutating func leave(_ id: String) -> Leaving? {
        guard let foldID = foldOf.removeValue(forKey: id), var fold = folds[foldID] else { return nil }
        fold.waiting.removeAll { $0.id == id }
        guard !fold.waiting.isEmpty else {
            _ = remove(foldID)
            return .emptied(foldID: foldID, source: fold.source)
        }
        let queuesUpdate = !fold.isUpdateQueued
        fold.isUpdateQueued = true
        folds[foldID] = fold
        return .counted(foldID: foldID, queuesUpdate: queuesUpdate)
    }

    /// The fold with id `id`, taken off: it left the screen, or the user answered it.
    mutating func remove(_ id: String) -> Fold? {
        guard let fold = folds.removeValue(forKey: id) else { return nil }
        bySource[fold.source] = nil
        for member in fold.waiting { foldOf[member.id] = nil }
        return fold
    }
}
