import DBusCore
import Logging
import NotificationBridge
import NotificationBridgeAPI
import NotificationScheduling
import ServiceLifecycle
import Synchronization

/// The daemon's long-lived work, each piece a `Service` of one `ServiceGroup` run by ``NotificationDaemon/run()``:
/// a graceful shutdown stops them in the reverse of the order they are listed in, so the bus name watch stops taking
/// calls first, the scheduler stops before its firings are no longer followed, the job runner stops once the calls
/// still being handled are answered, and the settings watcher and the store's writer, which those calls use, stop
/// last.
enum DaemonServices {
    /// Why serving ended.
    enum Ending: Sendable, Equatable {
        case shutdown
        case nameLost
        case busClosed
    }

    /// Runs the jobs that answer calls (``DaemonCore/jobs``), each a child task, until a graceful shutdown; then waits
    /// for the jobs under way, each bounded by the server's timeout or the disk.
    struct JobRunner: Service, CustomStringConvertible {
        let jobs: AsyncStream<@Sendable () async -> Void>
        /// Ends ``jobs`` at a graceful shutdown (the core takes no calls by then).
        let finish: @Sendable () -> Void
        var description: String { "job runner" }

        func run() async {
            // A plain loop over the stream: every call goes through it, and a sequence that also watches for the
            // shutdown would cost each job extra task switches.
            await withGracefulShutdownHandler {
                await withDiscardingTaskGroup { group in
                    for await job in jobs { group.addTask(operation: job) }
                }
            } onGracefulShutdown: {
                finish()
            }
        }
    }

    /// Hands each element of a stream to the core, in order, until a graceful shutdown. A stream that ends first
    /// (its connection closed) leaves the follower waiting for the shutdown, which the bus name watch starts: the
    /// group stops in its order, not in the order the streams happened to end.
    struct Follower<Element: Sendable>: Service, CustomStringConvertible {
        let description: String
        let stream: AsyncStream<Element>
        let handle: @Sendable (Element) async -> Void

        func run() async {
            // The stream is read by a plain loop (no extra task switches per element).
            await DaemonServices.untilGracefulShutdown { [stream, handle] in
                for await element in stream { await handle(element) }
            }
        }
    }

    /// Runs each of `loops` as a child task until a graceful shutdown, which cancels them; a loop that ends first
    /// leaves the others running and the shutdown still awaited.
    static func untilGracefulShutdown(_ loops: (@Sendable () async -> Void)...) async {
        await withTaskGroup(of: Bool.self) { group in
            for loop in loops {
                group.addTask {
                    await loop()
                    return false
                }
            }
            group.addTask {
                _ = try? await gracefulShutdown()
                return true
            }
            while let isShutdown = await group.next() {
                if isShutdown { group.cancelAll() }
            }
        }
    }

    /// Follows the desktop's do-not-disturb (``DaemonCore/doNotDisturbWatcher``) into the core until a graceful
    /// shutdown; while notifications are held and the desktop announces no change of its switch (mako), reads it
    /// again every `pollInterval`, and never while none is held.
    struct DoNotDisturbFollower: Service, CustomStringConvertible {
        let core: DaemonCore
        let pollInterval: Duration
        var description: String { "desktop do-not-disturb" }

        func run() async {
            let watcher = core.doNotDisturbWatcher
            let states = watcher.states()
            await DaemonServices.untilGracefulShutdown(
                { await watcher.run() },
                { [core] in
                    for await state in states { await core.desktopDoNotDisturbChanged(state) }
                },
                { [core, pollInterval] in
                    for await _ in core.heldPollRequests {
                        while !Task.isCancelled, await core.hasHeld {
                            guard let state = await watcher.refresh() else { break }
                            await core.desktopDoNotDisturbChanged(state)
                            try? await Task.sleep(for: pollInterval)
                        }
                    }
                })
        }
    }

    /// Follows the session's lock (``SessionLockMonitor/run()``) and hands the responses held until an unlock over
    /// (``LockGate/run()``) until a graceful shutdown; a source that goes away leaves the session unlocked and the
    /// shutdown still awaited.
    struct LockFollower: Service, CustomStringConvertible {
        let monitor: SessionLockMonitor
        let gate: LockGate
        var description: String { "session lock" }

        func run() async {
            await DaemonServices.untilGracefulShutdown(
                { [monitor] in await monitor.run() }, { [gate] in await gate.run() })
        }
    }

    /// Hands each of the session's events to the core, in order, to the end of the session's stream: unlike a
    /// ``Follower``, a graceful shutdown does not cut it off. Listed before ``Session``, it stops after it, once the
    /// session's stream has ended: what the server answered before the session stopped (a notification posted again to
    /// a new server, whose new id the next start must find on disk) is recorded rather than dropped with the events
    /// still queued.
    struct SessionEvents: Service, CustomStringConvertible {
        let events: AsyncStream<SessionEvent>
        let core: DaemonCore
        var description: String { "notification events" }

        func run() async {
            for await event in events { await core.handle(event) }
            // Ended with the session, which stops first: the group's order still ends this one in its turn.
            _ = try? await gracefulShutdown()
        }
    }

    /// Runs the server session (``NotificationServerSession/run()``): its news from the bus, its prompts and its calls
    /// that outlive their caller. A graceful shutdown lets the work under way end.
    struct Session: Service, CustomStringConvertible {
        let session: NotificationServerSession
        var description: String { "notification server session" }

        func run() async {
            await withGracefulShutdownHandler {
                await session.run()
            } onGracefulShutdown: {
                session.finish()
            }
        }
    }

    /// Hands app activations over (``ApplicationActivations/run()``); a graceful shutdown lets the queued ones go
    /// first.
    struct Activations: Service, CustomStringConvertible {
        let activations: ApplicationActivations
        var description: String { "app activations" }

        func run() async {
            await withGracefulShutdownHandler {
                await activations.run()
            } onGracefulShutdown: {
                activations.finish()
            }
        }
    }

    /// Owns a part of the daemon whose only work at the end is to let go: it waits for the group's graceful shutdown,
    /// then runs `stop`. Listed before the services that use the part, it stops after them: the group's order is the
    /// daemon's teardown.
    struct Closing: Service, CustomStringConvertible {
        let description: String
        let stop: @Sendable () async -> Void

        func run() async {
            _ = try? await gracefulShutdown()
            await stop()
        }
    }

    /// The serving itself (``NotificationDaemon``'s exporting, taking the name, restoring, and its own group of the
    /// services that answer calls): the last of the daemon's group, so the first to stop, and the one whose end, by a
    /// shutdown, the loss of the name or a failure, ends the group.
    struct Serving: Service, CustomStringConvertible {
        let serve: @Sendable () async throws -> Void
        var description: String { "serving" }

        func run() async throws { try await serve() }
    }

    /// The store's writer: closed once the jobs that write are done, so that everything acknowledged is on disk
    /// before the state directory is let go to a daemon that takes over.
    static func storeWriter(_ commits: DurableCommits) -> Closing {
        Closing(description: "state writer") { await commits.close() }
    }

    /// Follows the user's settings into their cache (``CachedSettings/run()``) until a graceful shutdown, then closes
    /// them: listed before the jobs that read the settings, it closes them once those jobs are done.
    struct SettingsWatcher: Service, CustomStringConvertible {
        let settings: CachedSettings
        var description: String { "settings watcher" }

        func run() async {
            await withDiscardingTaskGroup { group in
                group.addTask { [settings] in await settings.run() }
                _ = try? await gracefulShutdown()
                await settings.close()
            }
        }
    }

    /// Runs the scheduler (``Scheduler/run()``) until a graceful shutdown, then ends the stream of its firings: listed
    /// after their follower, it stops first, so that no firing is left unhandled.
    struct Scheduling: Service, CustomStringConvertible {
        let scheduler: Scheduler<PendingPost>
        let firings: AsyncStream<ScheduledFiring<PendingPost>>.Continuation
        var description: String { "scheduler" }

        func run() async {
            await DaemonServices.untilGracefulShutdown { [scheduler] in await scheduler.run() }
            firings.finish()
        }
    }

    /// Why serving ended, as the bus name watch saw it.
    final class EndingCell: Sendable {
        private let value = Mutex(Ending.shutdown)

        var ending: Ending { value.withLock { $0 } }

        func set(_ ending: Ending) { value.withLock { $0 = ending } }
    }

    /// Watches the daemon's bus name: when another daemon takes it, or the bus goes away, serving ends. The first
    /// service to stop on a graceful shutdown: from then on the core refuses new calls.
    struct NameWatch: Service, CustomStringConvertible {
        let events: AsyncStream<DBusConnection.NameEvent>
        let core: DaemonCore
        let ending: EndingCell
        var description: String { "bus name watch" }

        func run() async {
            var lost = false
            for await event in events.cancelOnGracefulShutdown() where event == .lost(BridgeAPI.busName) {
                lost = true
                break
            }
            if lost {
                ending.set(.nameLost)
            } else if !Task.isShuttingDownGracefully, !Task.isCancelled {
                // The stream ended by itself: the connection is gone.
                ending.set(.busClosed)
            }
            await core.beginShutdown()
        }
    }
}
