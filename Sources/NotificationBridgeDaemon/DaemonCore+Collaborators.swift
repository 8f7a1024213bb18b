import DBusCore
import Logging
import NotificationBridge
import NotificationScheduling

/// The core's collaborators, each by its own name (``DaemonCollaborators``): set once, read from any thread.
extension DaemonCore {
    nonisolated var connection: DBusConnection { collaborators.connection }
    nonisolated var session: NotificationServerSession { collaborators.session }
    nonisolated var lockMonitor: SessionLockMonitor { collaborators.lockMonitor }
    nonisolated var lockGate: LockGate { collaborators.lockGate }
    nonisolated var badges: BadgeEmitter { collaborators.badges }
    nonisolated var settings: CachedSettings { collaborators.settings }
    nonisolated var activations: ApplicationActivations { collaborators.activations }
    nonisolated var logger: Logger { collaborators.logger }
    nonisolated var defaultAppName: String { collaborators.defaultAppName }
    nonisolated var peers: PeerDirectory { collaborators.peers }
    nonisolated var commits: DurableCommits { collaborators.commits }
    nonisolated var scheduler: Scheduler<PendingPost> { collaborators.scheduler }
    nonisolated var jobs: AsyncStream<@Sendable () async -> Void>.Continuation { collaborators.jobs }
    nonisolated var doNotDisturbWatcher: any DesktopDoNotDisturbWatching { collaborators.doNotDisturbWatcher }
    nonisolated var heldPolls: AsyncStream<Void>.Continuation { collaborators.heldPolls }
    nonisolated var heldPollRequests: AsyncStream<Void> { collaborators.heldPollRequests }
    nonisolated var focusTimerWake: AsyncStream<Void>.Continuation { collaborators.focusTimerWake }
    nonisolated var focusTimerWakes: AsyncStream<Void> { collaborators.focusTimerWakes }
    nonisolated var serverCloses: ServerCloses { collaborators.serverCloses }
}
