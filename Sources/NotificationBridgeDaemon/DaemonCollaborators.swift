import DBusCore
import Logging
import NotificationBridge
import NotificationScheduling

/// What ``DaemonCore`` works with and never changes: the bus, the server session, the services it asks and the
/// channels its services listen on. Set once, when the core is made; the state the core changes is elsewhere (the
/// table and the policy values).
struct DaemonCollaborators: Sendable {
    let connection: DBusConnection
    /// The conversation with the notification server.
    let session: NotificationServerSession
    /// Whether the user's session is locked, as logind or the screen saver says.
    let lockMonitor: SessionLockMonitor
    /// Holds responses that need an unlocked session until it is unlocked.
    let lockGate: LockGate
    /// Sends the badge a shown notification carries to the app's launcher entry.
    let badges: BadgeEmitter
    /// The user's notification settings, per app, as a Post reads them (the store itself is `settings.store`).
    let settings: CachedSettings
    let activations: ApplicationActivations
    let logger: Logger
    let defaultAppName: String
    /// Who each calling connection is: the host, or a sandboxed app confined to its own notifications.
    let peers: PeerDirectory
    /// Scheduled notifications, categories and routes, written off the actors.
    let commits: DurableCommits
    /// Fires scheduled notifications into ``DaemonCore/fired(_:)``.
    let scheduler: Scheduler<PendingPost>
    /// Work that must not hold up a call: each job runs as a child of the daemon's task group.
    let jobs: AsyncStream<@Sendable () async -> Void>.Continuation
    /// Follows the desktop's do-not-disturb (see `DaemonCore+DoNotDisturb.swift`).
    let doNotDisturbWatcher: any DesktopDoNotDisturbWatching
    /// Asks for the switch to be read again now and then while notifications are held, where the desktop announces
    /// no change of it; read by the do-not-disturb follower (``heldPollRequests``).
    let heldPolls: AsyncStream<Void>.Continuation
    /// What ``heldPolls`` asks.
    let heldPollRequests: AsyncStream<Void>
    /// Asks the focus timer to ask again which mode is on, after the user changed the modes (``FocusTimer``).
    let focusTimerWake: AsyncStream<Void>.Continuation
    /// What ``focusTimerWake`` asks.
    let focusTimerWakes: AsyncStream<Void>
    /// The closes ``DaemonCore/takeOffServer(_:)`` queues for the server, sent a window at a time.
    let serverCloses = ServerCloses()
}
