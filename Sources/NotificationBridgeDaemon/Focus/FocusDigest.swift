import NotificationModel

/// What a focus mode held, told in one notification when it ends, as iOS's summary does: "14 while Sleep was on",
/// then "Mail 9, Chat 5, 2 from Ann", with actions to show them all, to send them to the history, or to dismiss them.
/// The held notifications themselves stay listed (`ListPending`, held); the digest only counts them.
struct FocusDigest: Sendable, Hashable {
    /// One held notification, as the digest counts it.
    struct Held: Sendable, Hashable {
        /// The app's name as the user knows it.
        var app: String
        /// Who or what its thread is about (its summary argument, "Ann"), if it has one.
        var threadLabel: String?
    }

    /// A name and how many of the held notifications have it.
    struct Count: Sendable, Hashable {
        var name: String
        var count: Int
    }

    /// What the digest offers.
    enum Action: String, Sendable, Hashable, CaseIterable {
        /// Shows every held notification, in the order they came.
        case showAll = "show-all"
        /// Sends them to the history, unanswered, where `notification-bridge history` lists them and
        /// `notification-bridge act` (or `Act`, `Present`) still answers them or shows one again: the desktop has no
        /// viewer of the bridge's history to open.
        case history
        /// Dismisses them all, as if the user had dismissed each.
        case dismiss = "dismiss-all"

        /// The action a response names, `nil` for one the digest does not offer; a click on its body shows them all,
        /// as it opens what a notification stands for.
        init?(actionID: String) {
            if actionID == NotificationResponse.defaultActionID {
                self = .showAll
                return
            }
            self.init(rawValue: actionID)
        }

        /// The button's label.
        var label: String {
            switch self {
            case .showAll: "Show all"
            case .history: "Keep in history"
            case .dismiss: "Dismiss all"
            }
        }
    }

    /// The most held notifications shown one by one when a mode ends, as before there was a digest: a few are
    /// no flood.
    static let releasedOneByOne = 3

    /// The id the daemon shows the digest under: not of the form of a posted notification's id
    /// (``NotificationIDForm``), so that no app can name it.
    static let notificationID = "focus-digest"

    /// The most threads the body names, so that it stays one line; the rest are counted in their apps only.
    static let namedThreads = 3

    /// The mode that held them.
    let mode: String
    /// How many it held.
    let total: Int
    /// Each app, most first (then by name).
    let apps: [Count]
    /// The threads with a label, most first (then by label), at most ``namedThreads``.
    let threads: [Count]

    /// The digest of `held`, held while `mode` was on; `nil` when nothing was held.
    init?(mode: String, held: [Held]) {
        guard !held.isEmpty else { return nil }
        self.mode = mode
        total = held.count
        apps = Self.counted(held.map(\.app))
        threads = Array(Self.counted(held.compactMap(\.threadLabel)).prefix(Self.namedThreads))
    }

    /// "14 while Sleep was on".
    var title: String { "\(total) while \(mode) was on" }

    /// "Mail 9, Chat 5, 2 from Ann".
    var body: String {
        (apps.map { "\($0.name) \($0.count)" } + threads.map { "\($0.count) from \($0.name)" }).joined(separator: ", ")
    }

    /// The notification the server is sent: silent (what it counts made no sound either), with its three actions.
    var content: NotificationContent {
        NotificationContent(
            title: title, body: body, appName: "Notification Bridge", sound: .none,
            actions: Action.allCases.map {
                NotificationAction(id: $0.rawValue, title: $0.label, activation: .background)
            })
    }

    private static func counted(_ names: [String]) -> [Count] {
        var counts: [String: Int] = [:]
        for name in names { counts[name, default: 0] += 1 }
        return counts.map { Count(name: $0.key, count: $0.value) }.sorted {
            $0.count != $1.count ? $0.count > $1.count : $0.name < $1.name
        }
    }
}
