/// What a focus mode held, told in one notification when it ends, as iOS's summary does: "14 while Sleep was on",
/// then "Mail 9, Chat 5, 2 from Ann", with actions to show them all, to open the history, or to dismiss them. The
/// held notifications themselves stay listed and answerable; the digest only counts them.
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
        /// Opens the history, where they are listed.
        case history
        /// Dismisses them all.
        case dismiss

        /// The button's label.
        var label: String {
            switch self {
            case .showAll: "Show all"
            case .history: "Open history"
            case .dismiss: "Dismiss all"
            }
        }
    }

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

    private static func counted(_ names: [String]) -> [Count] {
        var counts: [String: Int] = [:]
        for name in names { counts[name, default: 0] += 1 }
        return counts.map { Count(name: $0.key, count: $0.value) }.sorted {
            $0.count != $1.count ? $0.count > $1.count : $0.name < $1.name
        }
    }
}
