@_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Runs every task of a process on one thread that sleeps in `epoll` between jobs: a daemon built on it makes no
/// wake-ups while idle, and a `Task.sleep` waits on a `timerfd` of that thread instead of on libdispatch's timers.
///
/// Swift's default executors on Linux are libdispatch's thread pool, whose monitor wakes the process once a second
/// for as long as it lives once any task has run on the pool. A program that calls ``runMain(signals:onSignal:_:)``
/// from a synchronous entry point, before any task exists, replaces both the main and the global executor (Swift
/// 6.3's experimental custom executors) with this loop, so libdispatch never starts its pool.
///
/// Everything then runs on one thread: a job that blocks blocks the whole process. Blocking work (disk syncs, D-Bus
/// connections) belongs on threads of its own, as the daemon already keeps it.
public enum EventLoopExecutor {
    static let loop = EventLoop()

    /// The main executor: jobs isolated to the main actor.
    static let main = MainLoopExecutor()

    /// The global executor: every task without an actor of its own.
    static let global = GlobalLoopExecutor()

    /// Makes the loop the process's main and global executor, starts `body` as a task, and runs the loop on the
    /// calling thread; the process exits with the status `body` returns.
    ///
    /// Call it once, first thing in a synchronous `main`: no task may have been created before.
    ///
    /// - Parameters:
    ///   - signals: signals to take from the process (`SIGTERM`, `SIGINT`): blocked in every thread and read by the
    ///     loop instead, so a handler runs as an ordinary job. Children started with `posix_spawn` must reset their
    ///     signal mask (`POSIX_SPAWN_SETSIGMASK`).
    ///   - onSignal: called on the loop's thread with each signal received.
    ///   - body: the program.
    public static func runMain(
        signals: [Int32] = [], onSignal: @escaping @Sendable (Int32) -> Void = { _ in },
        _ body: @escaping @Sendable () async -> Int32
    ) -> Never {
        if !signals.isEmpty { loop.handleSignals(signals, onSignal) }
        _createExecutors(factory: Factory.self)
        Task {
            let status = await body()
            exit(status)
        }
        loop.run()
    }

    /// Runs `body` on the loop's thread each time no job has run for `delay` after some did: once after each spell
    /// of work, and never while the process stays idle, which therefore still makes no wake-ups. Replaces the
    /// `body` set before.
    public static func whenQuiet(for delay: Duration, _ body: @escaping @Sendable () -> Void) {
        let (seconds, attoseconds) = delay.components
        loop.whenQuiet(afterNanoseconds: seconds * 1_000_000_000 + attoseconds / 1_000_000_000, body)
    }

    struct Factory: ExecutorFactory {
        static var mainExecutor: any MainExecutor { EventLoopExecutor.main }
        static var defaultExecutor: any TaskExecutor { EventLoopExecutor.global }
    }
}

/// Jobs a `Task.sleep` or a clock's wait schedules: on the clock's own kernel clock, so a wait on `ContinuousClock`
/// counts the time the machine was suspended and one on `SuspendingClock` does not.
extension EventLoop {
    func schedule<C: Clock>(_ job: Job, at instant: C.Instant, clock: C) {
        let delay = clock.now.duration(to: instant)
        let nanoseconds: Int64
        if let delay = delay as? Duration {
            let (seconds, attoseconds) = delay.components
            nanoseconds =
                seconds.multipliedReportingOverflow(by: 1_000_000_000).overflow
                ? Int64.max / 2 : seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        } else {
            // A clock whose durations are not Swift's has no distance in nanoseconds to wait: the job runs at once.
            // The programs built on this loop wait only on ContinuousClock and SuspendingClock.
            nanoseconds = 0
        }
        enqueue(job, afterNanoseconds: nanoseconds, on: clock is ContinuousClock ? .boottime : .monotonic)
    }
}

/// What both executors share: their jobs go to the loop, tagged with which of the two they belong to, and their
/// timed jobs wait in the loop's timers.
protocol LoopExecutor: SchedulingExecutor {
    /// Whether the jobs are the main actor's.
    static var runsOnMain: Bool { get }
}

extension LoopExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
        EventLoopExecutor.loop.enqueue(EventLoop.Job(job: UnownedJob(job), onMain: Self.runsOnMain))
    }

    func enqueue<C: Clock>(
        _ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C
    ) {
        EventLoopExecutor.loop.schedule(
            EventLoop.Job(job: UnownedJob(job), onMain: Self.runsOnMain), at: instant, clock: clock)
    }

    func enqueue<C: Clock>(
        _ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C
    ) {
        enqueue(job, at: clock.now.advanced(by: delay), tolerance: tolerance, clock: clock)
    }
}

/// The main actor's executor: a serial executor whose jobs run on the loop's thread.
final class MainLoopExecutor: MainExecutor, LoopExecutor, @unchecked Sendable {
    // Stateless: everything lives in the loop.
    static var runsOnMain: Bool { true }

    func run() throws { EventLoopExecutor.loop.run() }

    func stop() {}

    func checkIsolated() {
        precondition(EventLoopExecutor.loop.isCurrent, "main actor code ran off the event loop's thread")
    }

    func isIsolatingCurrentContext() -> Bool? { EventLoopExecutor.loop.isCurrent }
}

/// The global executor: tasks without an actor, run on the loop's thread.
final class GlobalLoopExecutor: TaskExecutor, LoopExecutor, @unchecked Sendable {
    // Stateless: everything lives in the loop.
    static var runsOnMain: Bool { false }
}
