import DBusCore
import Logging
import NotificationBridge
import NotificationBridgeAPI
import ServiceLifecycle
import Synchronization

/// The daemon's long-lived work, each piece a `Service` of one `ServiceGroup` run by ``NotificationDaemon/run()``:
/// a graceful shutdown stops them in the reverse of the order they are listed in, so the bus name watch stops taking
/// calls first and the job runner, which answers calls still being handled, stops last.
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
            // The stream is read by a plain loop (no extra task switches per element), beside a task that waits for
            // the shutdown and then ends the loop.
            await withTaskGroup(of: Bool.self) { group in
                group.addTask { [stream, handle] in
                    for await element in stream { await handle(element) }
                    return false
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
