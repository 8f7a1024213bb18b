internal import CLinux
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The thread that runs every job of the process, and what it waits on: one `epoll` set holding an `eventfd` (rung
/// when another thread enqueues a job), a `timerfd` per clock (armed for the earliest waiting job, never periodic)
/// and, when asked for, a `signalfd`.
///
/// With nothing ready and nothing scheduled the thread sleeps in `epoll_wait` with no timeout, so an idle process
/// makes no wake-ups at all.
final class EventLoop: @unchecked Sendable {
    // The descriptors are created once and never closed: the loop lives as long as the process.
    // `signalHandler` is written once, before `run()` starts, and read only by the loop's thread.

    /// A job and how it must run: isolated to the main executor, or as a task on the global one.
    struct Job {
        var job: UnownedJob
        var onMain: Bool
    }

    /// Which clock a waiting job's deadline is on.
    enum TimerClock {
        /// `CLOCK_MONOTONIC`: stops while the machine is suspended (Swift's `SuspendingClock`).
        case monotonic
        /// `CLOCK_BOOTTIME`: counts suspended time too (Swift's `ContinuousClock`).
        case boottime

        var id: clockid_t { self == .monotonic ? CLOCK_MONOTONIC : CLOCK_BOOTTIME }

        /// Now on this clock, in nanoseconds.
        var now: Int64 {
            var time = timespec()
            clock_gettime(id, &time)
            return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
        }
    }

    private struct State {
        var ready: [Job] = []
        var monotonic = DeadlineQueue()
        var boottime = DeadlineQueue()
        /// The eventfd has been written and the loop has not read it yet: another write would only wake it twice.
        var rung = false
        /// Run each time the loop has been without work this long (nanoseconds) after a spell of it.
        var whenQuiet: (delay: Int64, body: @Sendable () -> Void)?

        /// Marks the bell rung and says whether the caller must ring it (it was quiet).
        mutating func ringIfQuiet() -> Bool {
            guard !rung else { return false }
            rung = true
            return true
        }
    }

    private let state = Mutex(State())
    private let poller: Int32
    private let bell: Int32
    private let monotonicTimer: Int32
    private let boottimeTimer: Int32
    private var signals: Int32 = -1
    private var signalHandler: (@Sendable (Int32) -> Void)?
    private let loopThread = Atomic<UInt>(0)

    init() {
        poller = epoll_create1(Int32(EPOLL_CLOEXEC))
        bell = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        monotonicTimer = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        boottimeTimer = timerfd_create(CLOCK_BOOTTIME, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        guard poller >= 0, bell >= 0, monotonicTimer >= 0, boottimeTimer >= 0 else {
            fatalError("the event loop cannot be created (epoll, eventfd, timerfd): errno \(errno)")
        }
        for descriptor in [bell, monotonicTimer, boottimeTimer] { watch(descriptor) }
    }

    /// Blocks `numbers` in the calling thread (threads started later inherit the mask) and has the loop read them
    /// from a `signalfd`, calling `handler` on the loop's thread for each. Call before any other thread starts.
    func handleSignals(_ numbers: [Int32], _ handler: @escaping @Sendable (Int32) -> Void) {
        var set = sigset_t()
        sigemptyset(&set)
        for number in numbers { sigaddset(&set, number) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        signals = signalfd(-1, &set, Int32(SFD_CLOEXEC | SFD_NONBLOCK))
        guard signals >= 0 else { fatalError("the event loop cannot read signals (signalfd): errno \(errno)") }
        signalHandler = handler
        watch(signals)
    }

    /// Whether the calling thread is the loop's.
    var isCurrent: Bool { loopThread.load(ordering: .acquiring) == UInt(pthread_self()) }

    func enqueue(_ job: Job) {
        // The loop's own thread looks at the queue again before it waits: no need to wake it.
        if isCurrent {
            state.withLock { $0.ready.append(job) }
            return
        }
        let ring = state.withLock { state in
            state.ready.append(job)
            return state.ringIfQuiet()
        }
        if ring { ringBell() }
    }

    func enqueue(_ job: Job, afterNanoseconds delay: Int64, on clock: TimerClock) {
        let deadline = clock.now + max(0, delay)
        let current = isCurrent
        let ring = state.withLock { state in
            switch clock {
            case .monotonic: state.monotonic.insert(job, deadline: deadline)
            case .boottime: state.boottime.insert(job, deadline: deadline)
            }
            // The loop arms its timers each time round before it waits: waking it once is enough.
            return !current && state.ringIfQuiet()
        }
        if ring { ringBell() }
    }

    /// Has `body` run on the loop's thread each time `delay` nanoseconds have passed without a job after some ran:
    /// once after each spell of work, never while the loop stays idle. Replaces the one set before.
    func whenQuiet(afterNanoseconds delay: Int64, _ body: @escaping @Sendable () -> Void) {
        let current = isCurrent
        let ring = state.withLock { state in
            state.whenQuiet = (max(0, delay), body)
            return !current && state.ringIfQuiet()
        }
        if ring { ringBell() }
    }

    /// Runs jobs on the calling thread until the process exits.
    func run() -> Never {
        loopThread.store(UInt(pthread_self()), ordering: .releasing)
        var armed: (monotonic: Int64?, boottime: Int64?) = (nil, nil)
        var events = [epoll_event](repeating: epoll_event(), count: 8)
        var batch: [Job] = []
        // When the last job ran, on the monotonic clock, if the quiet that follows has not been marked yet.
        var lastWork: Int64?
        while true {
            let now = TimerClock.monotonic.now
            var (deadlines, quiet) = state.withLock { state in
                batch.append(contentsOf: state.ready)
                state.ready.removeAll(keepingCapacity: true)
                state.monotonic.removeDue(at: now, into: &batch)
                state.boottime.removeDue(at: TimerClock.boottime.now, into: &batch)
                return ((state.monotonic.earliest, state.boottime.earliest), state.whenQuiet)
            }
            if !batch.isEmpty {
                for job in batch { run(job) }
                batch.removeAll(keepingCapacity: true)
                if quiet != nil { lastWork = TimerClock.monotonic.now }
                continue
            }
            if let quiet, let last = lastWork {
                let due = last + quiet.delay
                if due <= now {
                    lastWork = nil
                    quiet.body()
                    continue
                }
                // The monotonic timer wakes the loop for whichever comes first.
                deadlines.0 = min(deadlines.0 ?? due, due)
            }
            if deadlines.0 != armed.monotonic {
                arm(monotonicTimer, at: deadlines.0)
                armed.monotonic = deadlines.0
            }
            if deadlines.1 != armed.boottime {
                arm(boottimeTimer, at: deadlines.1)
                armed.boottime = deadlines.1
            }
            let count = epoll_wait(poller, &events, Int32(events.count), -1)
            if count < 0 { continue }  // EINTR: a debugger or a stop signal; look again
            for index in 0..<Int(count) { drain(events[index].data.fd) }
        }
    }

    private func run(_ job: Job) {
        if job.onMain {
            job.job.runSynchronously(on: EventLoopExecutor.main.asUnownedSerialExecutor())
        } else {
            job.job.runSynchronously(on: EventLoopExecutor.global.asUnownedTaskExecutor())
        }
    }

    private func drain(_ descriptor: Int32) {
        if descriptor == signals {
            var info = signalfd_siginfo()
            while read(signals, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
                signalHandler?(Int32(info.ssi_signo))
            }
            return
        }
        var count: UInt64 = 0
        _ = read(descriptor, &count, MemoryLayout<UInt64>.size)
        if descriptor == bell { state.withLock { $0.rung = false } }
        // A timer's expiry needs nothing more: the next turn takes the jobs that are due.
    }

    private func ringBell() {
        var one: UInt64 = 1
        _ = write(bell, &one, MemoryLayout<UInt64>.size)
    }

    private func watch(_ descriptor: Int32) {
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.fd = descriptor
        epoll_ctl(poller, EPOLL_CTL_ADD, descriptor, &event)
    }

    /// Arms `timer` for the absolute `deadline` on its clock, or disarms it.
    private func arm(_ timer: Int32, at deadline: Int64?) {
        var spec = itimerspec()
        if let deadline {
            // Zero would disarm the timer: a deadline already past still fires, a nanosecond after the epoch.
            let at = max(deadline, 1)
            spec.it_value = timespec(tv_sec: Int(at / 1_000_000_000), tv_nsec: Int(at % 1_000_000_000))
        }
        timerfd_settime(timer, Int32(TFD_TIMER_ABSTIME), &spec, nil)
    }
}
