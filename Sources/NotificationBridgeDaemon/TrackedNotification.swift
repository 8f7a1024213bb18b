import DBusCore
import NotificationBridge
import NotificationBridgeAPI
import NotificationModel
import NotificationScheduling

/// Everything the daemon knows of one notification, from `Post` to its end: the one owner of that state.
///
/// The ``phase`` says where the notification is in its life; every phase has a way out, and every way out ends the
/// waiting calls (`WaitForResponse` gets the response or `Error.Closed`).
struct TrackedNotification: Sendable {
    /// Where a notification is in its life.
    ///
    /// The cases that carry something hold it out of line (`indirect`), so that every entry of the table is not as
    /// large as the largest case: with thousands pending, that is megabytes.
    enum Phase: Sendable {
        /// Scheduled, not shown yet: the scheduler holds it.
        case pending
        /// It came due while no notification server ran; it is shown once one appears.
        indirect case awaitingServer(ScheduledFiring<ScheduledPost>)
        /// It came due while its app was attached in the foreground, and was handed to the app with `Fired`; the app
        /// may still `Present` it.
        indirect case handedToApp(ScheduledPost)
        /// The desktop's do-not-disturb holds it back: it is shown once the switch is off, in the order of `order`
        /// among those held. Its post stays in the store meanwhile, so that a restart holds it again.
        indirect case held(ScheduledFiring<ScheduledPost>, order: UInt64)
        /// `Notify` is out: the server has not answered yet.
        case posting
        /// The server shows it.
        case showing
        /// Delivered, but behind the newest notification of its thread, which the server shows in its place (on a
        /// server that does not group notifications itself, see ``ThreadBook``): listed, not on the server.
        case stacked
        /// The server closed it after an action whose response is still to come (the prompt for typed text is open,
        /// or the response waits for the session to unlock); the text says how it closed, `closeReason` what
        /// `Closed` will say. `Closed` waits for the response: a client that stops at `Closed` has had `Responded`.
        indirect case responding(String, closeReason: UInt32)
        /// It ended; the text says how, for calls that name it later ("was withdrawn", "expired", …).
        indirect case ended(String)
    }

    /// The app it was posted under; it owns the notification.
    var appName: String
    /// The unique name of the connection that posted it: `Responded` and `Closed` go to it alone.
    var poster: String
    /// Where its responses go.
    var route: ResponseRoute
    /// What it shows. Until a scheduled one is shown, only what selects it (its category and thread, see
    /// ``PendingPost/selection``): the rest is in the store until it fires.
    var content: NotificationContent {
        get { storedContent.value }
        set { storedContent = ImmutableBox(newValue) }
    }
    /// The content, out of line: an entry of the table stays a few words wide, which with thousands pending is
    /// megabytes less.
    private var storedContent: ImmutableBox<NotificationContent>
    /// Whether a dismissal is reported as a `dismiss` response (its category asks for it).
    var reportsDismissal: Bool
    /// Where it is in its life: changed only by ``handle(_:id:)``.
    private(set) var phase: Phase
    /// Whether the scheduler holds a firing of it still to come (a repeating one is scheduled while it shows, too).
    var isScheduled = false
    /// Whether the response to what the server shows now has come, or will not come (its prompt ended without
    /// text): either way a close that follows ends the notification. Changed only by ``handle(_:id:)``.
    private(set) var isAnswered = false
    /// The action id of the response delivered to what the server shows, if one was: how its history says it ended.
    var respondedAction: String?
    /// `WaitForResponse` calls for it, not answered yet.
    var waits: [DBusMethodCall] = []
    /// Responses for its poster that no `WaitForResponse` took yet, oldest first (at most ``maximumKeptResponses``).
    var keptResponses: [KeptResponse] = []

    static let maximumKeptResponses = 16

    /// Starts tracking a notification, in the phase `start` leads to
    /// (``TrackedTransition/first(_:reportsDismissal:)``): a life begins through the same table that moves it on.
    init(
        _ start: TrackedTransition.Start, appName: String, poster: String, route: ResponseRoute,
        content: NotificationContent, reportsDismissal: Bool
    ) {
        self.init(
            start, appName: appName, poster: poster, route: route, sharing: ImmutableBox(content),
            reportsDismissal: reportsDismissal)
    }

    /// Starts tracking a notification whose content is already boxed elsewhere (a scheduled notification's selection,
    /// in the scheduler): the box is shared, not copied.
    init(
        _ start: TrackedTransition.Start, appName: String, poster: String, route: ResponseRoute,
        sharing content: ImmutableBox<NotificationContent>, reportsDismissal: Bool
    ) {
        let first = TrackedTransition.first(start, reportsDismissal: reportsDismissal)
        self.appName = appName
        self.poster = poster
        self.route = route
        storedContent = content
        self.reportsDismissal = reportsDismissal
        (phase, isAnswered, respondedAction) = (first.phase, first.isAnswered, first.respondedAction)
    }

    /// Moves it on by `event`, as ``TrackedTransition`` says: the one place its phase changes. Returns the effects for
    /// the daemon to perform (``DaemonCore/apply(_:to:replaced:deferringStoreChanges:)`` performs them).
    mutating func handle(_ event: TrackedTransition.Event, id: String) -> [TrackedTransition.Effect] {
        let before = TrackedTransition.State(
            phase: phase, isAnswered: isAnswered, reportsDismissal: reportsDismissal, respondedAction: respondedAction)
        let (after, effects) = TrackedTransition.next(before, on: event, id: id)
        phase = after.phase
        isAnswered = after.isAnswered
        respondedAction = after.respondedAction
        return effects
    }

    /// Takes a content boxed elsewhere, shared rather than copied.
    mutating func share(_ content: ImmutableBox<NotificationContent>) {
        storedContent = content
    }

    /// Whether the server shows it, or is about to.
    var isOnServer: Bool {
        switch phase {
        case .posting, .showing: true
        default: false
        }
    }

    /// Whether it is delivered: on the server, or behind the newest of its thread, which shows in its place.
    var isDelivered: Bool {
        if case .stacked = phase { return true }
        return isOnServer
    }

    /// Whether it waits behind the newest notification of its thread.
    var isStacked: Bool {
        if case .stacked = phase { return true }
        return false
    }

    /// Whether it is still to be shown: scheduled, or come due and waiting for a server or for its app to present it.
    var awaitsShowing: Bool {
        switch phase {
        case .pending, .awaitingServer, .handedToApp, .held: true
        default: isScheduled
        }
    }

    /// Whether its `Notify` is out.
    var isPosting: Bool {
        if case .posting = phase { return true }
        return false
    }

    /// Whether it came due and waits for a server to show it.
    var isAwaitingServer: Bool {
        if case .awaitingServer = phase { return true }
        return false
    }

    /// Whether the desktop's do-not-disturb holds it back.
    var isHeld: Bool {
        if case .held = phase { return true }
        return false
    }

    /// Whether nothing more can happen to it: it ended, no firing is to come, and no call waits for it. Such an entry
    /// is kept a while for calls that name it late, then forgotten.
    var isFinished: Bool {
        guard case .ended = phase else { return false }
        return !isScheduled && waits.isEmpty
    }

    /// Whether it has left the server or ended: ended, or closed with a response still to come.
    var hasEnded: Bool {
        switch phase {
        case .ended, .responding: true
        default: false
        }
    }

    /// How it ended, or `nil` while it is not over.
    var ending: String? {
        if case .ended(let why) = phase { return why }
        return nil
    }
}
