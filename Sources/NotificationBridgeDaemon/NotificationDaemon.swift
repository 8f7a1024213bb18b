import DBusCore
import FoundationEssentials
import Logging
import NotificationBridge
import NotificationBridgeAPI
import NotificationScheduling
import NotificationStore
import ServiceLifecycle

/// The daemon: owns `io.github.NotificationBridge` and serves `io.github.NotificationBridge1` at
/// `/io/github/NotificationBridge`, posting through one long-lived connection to the notification server.
///
/// A `Service` for swift-service-lifecycle: run it in a `ServiceGroup` (``buildDaemon(arguments:)`` makes one) for a
/// graceful shutdown on SIGTERM and SIGINT. On shutdown it gives the bus name back and answers every waiting
/// `WaitForResponse` with `io.github.NotificationBridge1.Error.ShuttingDown`; notifications already shown stay on the
/// screen. ``run()`` throws ``DaemonError/busClosed`` when the bus goes away.
///
/// ## Threat model
///
/// Everything on the session bus runs as the same user, so the bridge does not defend against a hostile program
/// there: such a program can already read the user's files, and the bus lets it monitor any message. What the bridge
/// guarantees is that programs do not get in each other's way by accident, and that nothing private is broadcast:
/// - a response goes to exactly one place, chosen by the notification itself when it was posted: its `exec` command,
///   its app (`app-action`), or the posting connection (`Responded`, sent to that connection only, and its own
///   `WaitForResponse` calls; another connection's call gets the response without typed text while the poster is
///   connected). Typed text is never broadcast and never logged;
/// - a notification belongs to the app name it was posted under. `ListDelivered` and `WithdrawAll` act on the
///   caller's own notifications (posted on the same connection) unless the filter names an app (`app-name`); a
///   replacement (`replaces`) must be posted under the same app name. `Withdraw` and `WaitForResponse` take the id,
///   which is random and known only to whoever was given it;
/// - every argument is checked: a bad call gets a precise error and the daemon keeps serving;
/// - commands run with `posix_spawn`, never through a shell, and the response is handed to them in environment
///   variables and on standard input, never on the command line.
public final class NotificationDaemon: Service, CustomStringConvertible {
    /// The configuration it runs with.
    public let configuration: DaemonConfiguration

    /// Makes a daemon; nothing happens until ``run()``.
    public init(configuration: DaemonConfiguration) {
        self.configuration = configuration
    }

    /// The service's name in the group's log lines.
    public var description: String { "notification-bridged" }

    /// Connects, takes the bus name and serves until a graceful shutdown, the loss of the name, or the end of the
    /// bus connection.
    ///
    /// - Throws: ``DaemonError`` when the bus cannot be reached, the name is taken, or the bus goes away while
    ///   serving. A missing notification server is not an error: the daemon serves, keeps scheduled notifications,
    ///   and shows them once a server appears.
    public func run() async throws {
        let logger = configuration.logger
        let connection: DBusConnection
        do {
            connection = try await DBusConnection.connect(to: configuration.bus)
        } catch {
            throw DaemonError.cannotConnect("\(error)")
        }
        var systemConnection: DBusConnection?
        if let systemBus = configuration.systemBus {
            systemConnection = try? await DBusConnection.connect(to: systemBus)
        }
        let system = systemConnection
        let session: NotificationServerSession
        do {
            // Without a server the daemon still serves: it keeps scheduled notifications and shows them once one
            // appears; an immediate Post fails with Error.NoServer meanwhile. The daemon runs on the host and follows
            // the server's ids: never the portal's path.
            session = try await NotificationServerSession(
                connection: connection,
                configuration: .init(
                    rendering: configuration.rendering, promptCommand: configuration.promptCommand,
                    promptSearchPath: configuration.promptSearchPath, serverTimeout: configuration.serverTimeout,
                    startsWithoutServer: true, logger: logger))
        } catch {
            await close(connection, system)
            throw DaemonError.cannotConnect("\(error)")
        }
        let activator = AppActivator(
            connection: connection, applicationDirectories: configuration.applicationDirectories)
        let activations = ApplicationActivations(activator: activator, logger: logger)
        let (firings, firingSink) = AsyncStream<ScheduledFiring<PendingPost>>.makeStream()
        let scheduler = Scheduler<PendingPost>(
            clock: configuration.schedulerClock ?? SystemSchedulerClock(),
            timeZone: configuration.schedulerTimeZone ?? Scheduler<PendingPost>.systemTimeZone, logger: logger
        ) { firingSink.yield($0) }
        let (jobs, jobSink) = AsyncStream<@Sendable () async -> Void>.makeStream()
        // The store is opened only once the name is ours (see serve): a daemon refused the name never touches it.
        let commits = DurableCommits(
            directory: configuration.stateDirectory ?? DaemonStore.defaultDirectory(), logger: logger)
        let settings: CachedSettings
        do {
            // Kept in memory between changes: a Post reads them without a trip to the settings' thread.
            settings = CachedSettings(try await openSettings())
        } catch {
            await close(connection, system)
            throw DaemonError.cannotConnect("\(error)")
        }
        let lockMonitor = await SessionLockMonitor.find(system: system, session: connection)
        let doNotDisturb: any DesktopDoNotDisturbWatching
        if let given = configuration.desktopDoNotDisturb {
            doNotDisturb = given
        } else {
            // The server the session knows now; each change after it comes through the session's events.
            let server = session.currentServer
            doNotDisturb = DesktopDoNotDisturbWatcher(
                connection: connection, settings: settings.store, logger: logger, owner: server.owner,
                info: server.info)
        }
        let core = DaemonCore(
            connection: connection, session: session, lockMonitor: lockMonitor, settings: settings,
            activations: activations,
            defaultAppName: configuration.defaultAppName, commits: commits, scheduler: scheduler, jobs: jobSink,
            doNotDisturb: doNotDisturb, logger: logger)
        // The daemon's life is one group: the bus connections, the calls still waiting, the bus name, the store's writer
        // and the settings are let go at the end of services listed before the serving, which stops first; whether
        // serving ends by a shutdown, the loss of the name or a failure to take it, they stop in the reverse of this
        // order, each after the services that use it.
        let ending = DaemonServices.EndingCell()
        let services: [any Service] = [
            DaemonServices.Closing(description: "bus connections") { [self] in
                // A round trip to the bus: the answers sent before have left once its reply is back.
                _ = try? await connection.nameHasOwner(BridgeAPI.busName)
                await close(connection, system)
            },
            DaemonServices.Closing(description: "calls still waiting") { await core.beginShutdown() },
            DaemonServices.Closing(description: "bus name") {
                if ending.ending != .busClosed { _ = try? await connection.releaseName(BridgeAPI.busName) }
            },
            DaemonServices.storeWriter(commits), DaemonServices.SettingsWatcher(settings: settings),
            DaemonServices.Serving { [self] in
                // The jobs and the activations end with the serving, also when it never got to run them.
                defer {
                    jobSink.finish()
                    activations.finish()
                }
                try await serve(
                    core, firings: (firings, firingSink), jobs: jobs, ending: ending, on: connection, system: system)
            },
        ]
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: services.map {
                    .init(
                        service: $0, successTerminationBehavior: .gracefullyShutdownGroup,
                        failureTerminationBehavior: .gracefullyShutdownGroup)
                },
                logger: logger))
        try await group.run()
        switch ending.ending {
        case .busClosed:
            logger.error("the session bus went away")
            throw DaemonError.busClosed
        case .nameLost:
            logger.info("another notification-bridged took \(BridgeAPI.busName); stopping")
        case .shutdown:
            logger.info("stopped")
        }
    }

    /// Exports the interface, takes the name, and runs the daemon's work until it must stop: the scheduler, the server
    /// session and its events, the jobs that answer calls, the scheduler's firings, the bus's news, app activations,
    /// each a service of one `ServiceGroup` (see ``DaemonServices``), which a graceful shutdown of the daemon's group
    /// ends in order. `ending` says why serving ended.
    private func serve(
        _ core: DaemonCore,
        firings: (
            stream: AsyncStream<ScheduledFiring<PendingPost>>,
            sink: AsyncStream<ScheduledFiring<PendingPost>>.Continuation
        ),
        jobs: AsyncStream<@Sendable () async -> Void>, ending: DaemonServices.EndingCell,
        on connection: DBusConnection, system: DBusConnection?
    ) async throws {
        let logger = configuration.logger
        let events = core.session.events
        let departures = try await connection.signals(
            matching: DBusMatchRule(
                sender: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "NameOwnerChanged")
        ) { signal -> String? in
            guard signal.arguments.count == 3, case .string(let name) = signal.arguments[0], name.hasPrefix(":"),
                case .string(let newOwner) = signal.arguments[2], newOwner.isEmpty
            else { return nil }
            return name
        }
        let nameEvents = try await connection.nameEvents()
        // Zone changes and resumes move wall-clock triggers; without a system bus the zone is read at start only.
        var clockEvents: [AsyncStream<SystemClockEvent>] = []
        if let system {
            do {
                clockEvents = try await SystemClockEvents.follow(on: system)
            } catch {
                logger.warning(
                    "cannot follow time-zone changes and resumes on the system bus",
                    metadata: [
                        "error": "\(error)"
                    ])
            }
        }
        try await connection.export([BridgeInterface.make(core: core)], at: BridgeAPI.objectPath)
        var flags: DBusConnection.NameRequestFlags = [.allowReplacement, .doNotQueue]
        if configuration.replacesRunningDaemon { flags.insert(.replaceExisting) }
        let reply = try await connection.requestName(BridgeAPI.busName, flags: flags)
        guard reply == .primaryOwner || reply == .alreadyOwner else {
            throw DaemonError.nameTaken(owner: try? await connection.nameOwner(of: BridgeAPI.busName))
        }

        // Only the owner of the name reads the store and fires what was scheduled: a second daemon that was refused
        // leaves it alone. Calls that came in meanwhile wait in core.restored().
        do {
            try await loadState(into: core)
        } catch {
            await core.beginShutdown()
            await core.finishRestoring()
            throw error
        }
        await core.setHistory(bounds: configuration.historyBounds, clock: configuration.historyClock)
        await core.restore()
        let server = await core.session.serverInformation()
        logger.info(
            "serving \(BridgeAPI.interfaceName) as \(BridgeAPI.busName)",
            metadata: [
                "server.name": "\(server.name)", "server.version": "\(server.version)",
            ])
        configuration.whenServing?()

        // The store and the settings stop after all of these (see run()); the scheduler (listed after its firings'
        // follower) before that follower.
        var services: [any Service] = [
            // Before the jobs, so that a response held until the session unlocks still sees the unlock while they end.
            DaemonServices.LockFollower(monitor: core.lockMonitor, gate: core.lockGate),
            // Before the session, so that it follows the session's events until the session has stopped.
            DaemonServices.SessionEvents(events: events, core: core),
            // After the store and the settings and before the jobs, so that it stops after the jobs under way, which may
            // still be waiting on the server, and before the store's writer, which its last news may still reach.
            DaemonServices.Session(session: core.session),
            DaemonServices.JobRunner(jobs: jobs, finish: { [sink = core.jobs] in sink.finish() }),
            DaemonServices.Activations(activations: core.activations),
            DaemonServices.Follower(description: "scheduled firings", stream: firings.stream) { await core.fired($0) },
            DaemonServices.Scheduling(scheduler: core.scheduler, firings: firings.sink),
            DaemonServices.Follower(description: "notification settings", stream: core.settings.changes) {
                await core.settingsChanged(app: $0)
            },
            DaemonServices.Follower(
                description: "focus modes of the settings file", stream: core.settings.store.focusChanges()
            ) { _ in await core.focusFileChanged() },
            DaemonServices.Follower(description: "departed connections", stream: departures) {
                await core.connectionLeft($0)
            },
            DaemonServices.DoNotDisturbFollower(core: core, pollInterval: configuration.doNotDisturbPollInterval),
            FocusTimer(core: core),
        ]
        for source in clockEvents {
            let scheduler = core.scheduler
            services.append(
                DaemonServices.Follower(description: "clock changes", stream: source) { [core] in
                    await scheduler.apply($0)
                    // A new zone moves the schedules of focus modes as it moves wall-clock triggers.
                    core.focusTimerWake.yield()
                })
        }
        if let steps = configuration.wallClockSteps ?? WallClockSteps.follow() {
            let scheduler = core.scheduler
            services.append(
                DaemonServices.Follower(description: "wall-clock steps", stream: steps) { [core] in
                    await scheduler.clockStepped()
                    core.focusTimerWake.yield()
                })
        } else {
            logger.warning("cannot follow steps of the wall clock; fire dates may come late after one")
        }
        services.append(DaemonServices.NameWatch(events: nameEvents, core: core, ending: ending))
        // Any service that ends ends them all, gracefully, in the reverse of this order.
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: services.map {
                    .init(service: $0, successTerminationBehavior: .gracefullyShutdownGroup)
                },
                logger: logger))
        try await group.run()
    }

    /// Takes the state directory's lock (waiting for a daemon that is handing over to let it go) and opens the
    /// store.
    ///
    /// - Throws: ``DaemonError/cannotOpenState(_:)`` when another process holds the directory past
    ///   ``DaemonConfiguration/stateLockTimeout``, or the store cannot be read.
    private func loadState(into core: DaemonCore) async throws {
        let logger = configuration.logger
        let directory = core.commits.directory
        do {
            let lock = try await StateDirectoryLock.acquire(
                directory: directory, within: configuration.stateLockTimeout)
            let store = try DaemonStore(directory: directory)
            for moved in store.movedAside {
                logger.error("\(moved)")
            }
            if let lost = store.lostCommits {
                logger.error("\(lost)", metadata: ["state.directory": "\(directory)"])
            }
            if store.openedOnFullDisk {
                logger.warning(
                    """
                    the disk holding the saved state is full: what was saved is restored, but new notifications \
                    whose response must survive a restart are refused until some space is freed
                    """,
                    metadata: ["state.directory": "\(directory)"])
            }
            core.commits.open(store, lock: lock)
        } catch {
            logger.error("cannot open the saved state", metadata: ["error": "\(error)"])
            throw DaemonError.cannotOpenState("\(error)")
        }
    }

    /// Opens the user's notification settings where ``DaemonConfiguration/settingsLocation`` says, and says where in
    /// the log.
    private func openSettings() async throws -> NotificationSettingsStore {
        let logger = configuration.logger
        let environment = ProcessInfo.processInfo.environment
        let store = try await NotificationSettingsStore.open(
            configuration.settingsLocation,
            directory: configuration.settingsDirectory
                ?? NotificationSettingsLocation.defaultDirectory(environment: environment),
            environment: environment
        ) { logger.warning("\($0)") }
        logger.info(
            "notification settings",
            metadata: [
                "settings.source": "\(store.source.rawValue)", "settings.file": "\(store.filePath)",
            ])
        return store
    }

    private func close(_ connection: DBusConnection, _ system: DBusConnection?) async {
        await connection.close()
        await system?.close()
    }
}
