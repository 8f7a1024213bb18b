import DBusCore
import NotificationBridge
import NotificationModel

/// One notification on its way to the notification server, whichever way it came: the value that every stage of the
/// one delivery path (``DaemonCore/deliver(_:admitted:answered:)``) reads and shapes, in the same order for all.
struct Delivery: Sendable {
    /// Where a delivery comes from.
    enum Origin: String, CaseIterable, Sendable {
        /// `Post` of a notification to show now.
        case post
        /// A scheduled notification that came due: one posted with a trigger, a snoozed one whose snooze ended, one
        /// that waited for a server.
        case firing
        /// One the do-not-disturb gate held back, shown once the gate lets it through.
        case release
        /// `Present` of a scheduled notification that was handed to its frontmost app.
        case present
        /// `Present` of a history entry, shown again as a new delivery.
        case presentAgain
        /// An earlier notification of a thread, back on the server in the place of the newest, which was withdrawn.
        case broughtBack
        /// The newest notification of a thread, shown again in place with its thread's new count.
        case refresh
        /// A notification shown before a restart of the daemon, shown again in place from this run's connection.
        case restore

        /// Whether the notification is on the screen already: settings that would now keep it off leave it as it
        /// was shown, what would not pass validation now passed it when it was posted, and the gate lets it through.
        var isOnScreen: Bool { self == .broughtBack || self == .refresh || self == .restore }

        /// Whether someone asked for it to be shown now (its app, or the user from the history): the gate lets it
        /// through, as it lets through what is on the screen already.
        var isAskedFor: Bool { self == .present || self == .presentAgain }

        /// Whether flood control counts it: what its app posts now, or scheduled for now. What is on the screen, asked
        /// for, or released from hold (the user turned do-not-disturb off, or asked for them all) is no flood.
        var isCountedAgainstFlood: Bool { self == .post || self == .firing }

    }

    /// How the session stage hands a delivery to the server.
    enum Sending: Sendable {
        /// A `Notify`, new or replacing (the thread's newest, when it takes its place).
        case notify
        /// The notification shown now, updated where it shows, only while it is still on the server.
        case inPlace
        /// A notification of the last run, kept on disk as `kept`: followed again under its server id, and shown
        /// again from this run's connection.
        case takingOver(DeliveredPost)
    }

    /// A stage of the path, in the order every delivery passes them.
    enum Stage: UInt8, CaseIterable, Sendable {
        /// The content is valid, its category registered.
        case validation
        /// The user's settings for its app shape it, with the snooze buttons it offers.
        case settings
        /// Do-not-disturb and the focus mode on may hold it back (``DaemonCore/gateHolds(_:)``).
        case gate
        /// Flood control may fold it into one notification that counts what its app posts too fast
        /// (``DaemonCore/floodDecision(_:)``).
        case flood
        /// It joins its thread, takes the place of the thread's newest on the server, and carries the summary.
        case thread
        /// The server session shows it.
        case session

        /// Its name, as the log gives it.
        var name: String { "\(self)" }
    }

    /// Where it comes from.
    let origin: Origin
    /// Its id.
    let id: String
    /// The content as posted: what the gate judges.
    let posted: NotificationContent
    /// What the server is sent, as the stages so far shaped it.
    var content: NotificationContent
    /// Its registered category, if it names one.
    var category: NotificationCategory?
    /// The hints its post gave.
    var hints: [String: DBusValue]
    /// Whether another firing of it is still to come: it offers no snooze button then (the next firing has its id).
    var repeats: Bool
    /// The notification whose place on the server it takes, when its origin chose it (a thread's earlier one brought
    /// back); otherwise the thread stage chooses.
    var inPlaceOf: String?
    /// How the session stage shows it.
    var sending: Sending
    /// How many of its app's notifications are shown within how long, as the settings stage read it; flood control
    /// folds the excess.
    var floodLimit = FloodLimit.off
    /// The stages it passed, one bit each (a delivery is on the hot path of every `Post`: no array to grow).
    private var passedBits: UInt8 = 0

    init(
        _ origin: Origin, id: String, content: NotificationContent, category: NotificationCategory?,
        hints: [String: DBusValue] = [:], repeats: Bool = false, inPlaceOf: String? = nil, sending: Sending? = nil
    ) {
        self.origin = origin
        self.id = id
        posted = content
        self.content = content
        self.category = category
        self.hints = hints
        self.repeats = repeats
        self.inPlaceOf = inPlaceOf
        self.sending = sending ?? (origin == .refresh ? .inPlace : .notify)
    }

    /// Notes that it passed `stage`.
    mutating func pass(_ stage: Stage) {
        passedBits |= 1 << stage.rawValue
    }

    /// The stages it passed, in the order they come.
    var passed: [Stage] { Stage.allCases.filter { passedBits & (1 << $0.rawValue) != 0 } }
}
