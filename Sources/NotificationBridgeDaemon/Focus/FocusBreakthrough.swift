import NotificationModel

/// What a focus mode still lets reach the user: apps, threads (one conversation of one app), and levels. Each rule is
/// one predicate, asked in turn, as dunst keeps its do-not-disturb in one predicate and mako's modes are criteria of
/// one matcher; a notification that no rule lets through waits until the mode ends (or is dropped where its post
/// says so).
struct FocusBreakthrough: Sendable, Hashable, Codable {
    /// One conversation: a thread of one app.
    struct Thread: Sendable, Hashable, Codable {
        /// The app, by the name its settings go under.
        var app: String
        /// The thread's id, as the app posts it.
        var id: String
    }

    /// A rule that lets a notification through, in the order they are asked.
    enum Rule: String, Sendable, Hashable, CaseIterable {
        /// Every notification of an app the mode names.
        case app
        /// Every notification of a thread the mode names.
        case thread
        /// The one rule for levels (``NotificationInterruptionLevel/passes(_:timeSensitiveAllowed:)``): critical ones
        /// (of the apps the user allows critical ones) pass, and time-sensitive ones of the apps the user allows
        /// them, where the mode lets time-sensitive ones through.
        case level
    }

    /// A notification as the rules see it.
    struct Candidate: Sendable, Hashable {
        /// The app, by the name its settings go under.
        var app: String
        /// Its thread's id, if it has one.
        var thread: String?
        /// The level it is delivered at (critical only where the user allows it).
        var level: NotificationInterruptionLevel
        /// Whether the user lets the app's time-sensitive notifications through do-not-disturb.
        var timeSensitiveAllowed: Bool
    }

    /// The apps whose every notification passes.
    var apps: Set<String> = []
    /// The threads whose every notification passes.
    var threads: Set<Thread> = []
    /// Whether time-sensitive notifications of the apps allowed them pass (on, as on iOS, unless the user turns it
    /// off for the mode).
    var timeSensitive = true

    /// What the desktop's own do-not-disturb lets through, counted as a mode: levels only, by the one rule
    /// (``NotificationInterruptionLevel/passes(_:timeSensitiveAllowed:)``); a desktop's switch names no app or thread.
    static let desktop = FocusBreakthrough()

    /// Whether `rule` lets `candidate` through.
    func lets(_ candidate: Candidate, by rule: Rule) -> Bool {
        switch rule {
        case .app: apps.contains(candidate.app)
        case .thread: candidate.thread.map { threads.contains(Thread(app: candidate.app, id: $0)) } ?? false
        case .level:
            candidate.level.passes(.desktop, timeSensitiveAllowed: timeSensitive && candidate.timeSensitiveAllowed)
        }
    }

    /// The first rule that lets `candidate` through; `nil` when it waits.
    func rule(letting candidate: Candidate) -> Rule? {
        Rule.allCases.first { lets(candidate, by: $0) }
    }
}
