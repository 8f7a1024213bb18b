internal import CDBus
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The thread that owns one connection's libdbus objects.
///
/// Every libdbus call on a connection happens on its loop thread; a message that belongs to no connection yet (the
/// answer to a call) may be built on another thread and handed over to be sent. Other threads hand work over with
/// ``submit(_:)``:
/// the job is queued and the thread is woken through a self-pipe. The thread sleeps in `poll` on the connection's
/// watches, the eventfd and the nearest libdbus timeout, so an idle connection takes no CPU.
final class EventLoop: Sendable {
    typealias Job = @Sendable () -> Void

    private struct Queue: ~Copyable {
        var jobs: [Job] = []
        var stopping = false
    }

    private let queue = Mutex(Queue())
    /// The loop thread's `pthread_t`, 0 until it starts.
    private let threadID = Atomic<UInt>(0)

    /// Whether the caller runs on this loop's thread.
    var isCurrent: Bool { threadID.load(ordering: .relaxed) == UInt(pthread_self()) }
    /// The read end (polled by the loop) and write end (written by ``submit(_:)``) of the wake-up pipe.
    private let wakeDescriptor: Int32
    private let wakeWriteDescriptor: Int32

    init() throws(DBusFailure) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            throw DBusFailure(name: DBusFailure.Name.failed, message: "pipe failed: errno \(errno)")
        }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        wakeDescriptor = ends[0]
        wakeWriteDescriptor = ends[1]
    }

    deinit {
        close(wakeDescriptor)
        close(wakeWriteDescriptor)
    }

    /// Queues `job` to run on the loop thread, in submission order.
    ///
    /// - Returns: `false` when the loop has stopped and the job will never run.
    @discardableResult
    func submit(_ job: @escaping Job) -> Bool {
        let (accepted, wake) = queue.withLock { queue -> (Bool, Bool) in
            guard !queue.stopping else { return (false, false) }
            queue.jobs.append(job)
            return (true, queue.jobs.count == 1)
        }
        // On the loop thread itself the queue is drained before the next poll: no need to wake it.
        if wake && isCurrent { return accepted }
        if wake { signalWake() }
        return accepted
    }

    /// Asks the loop to end after the jobs already queued.
    func requestStop() {
        queue.withLock { $0.stopping = true }
        signalWake()
    }

    private func signalWake() {
        var byte: UInt8 = 1
        // A full pipe already means "wake up", so a failed write loses nothing.
        _ = write(wakeWriteDescriptor, &byte, 1)
    }

    private func takeJobs() -> (jobs: [Job], stopping: Bool) {
        queue.withLock { queue in
            let jobs = queue.jobs
            queue.jobs = []
            return (jobs, queue.stopping)
        }
    }

    /// Starts the thread; `body` runs on it first (to open the connection) and returns the watch set to serve, or
    /// `nil` to end the thread at once.
    func start(_ body: @escaping @Sendable () -> WatchSet?) {
        let context = ThreadContext(loop: self, body: body)
        var thread = pthread_t()
        let created = pthread_create(
            &thread, nil,
            { raw in
                let context = Unmanaged<ThreadContext>.fromOpaque(raw!).takeRetainedValue()
                context.loop.threadID.store(UInt(pthread_self()), ordering: .relaxed)
                if let watches = context.body() {
                    context.loop.run(watches)
                }
                return nil
            }, Unmanaged.passRetained(context).toOpaque())
        precondition(created == 0, "pthread_create failed: \(created)")
        pthread_detach(thread)
    }

    private final class ThreadContext: Sendable {
        let loop: EventLoop
        let body: @Sendable () -> WatchSet?
        init(loop: EventLoop, body: @escaping @Sendable () -> WatchSet?) {
            self.loop = loop
            self.body = body
        }
    }

    private func run(_ watches: WatchSet) {
        var drainBuffer = [UInt8](repeating: 0, count: 64)
        while true {
            let (jobs, stopping) = takeJobs()
            for job in jobs { job() }
            watches.dispatch()
            if stopping {
                watches.shutdown()
                return
            }
            if !takeJobsPending() {
                var descriptors = [pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)]
                let watched = watches.pollDescriptors(into: &descriptors)
                let result = poll(&descriptors, nfds_t(descriptors.count), watches.pollTimeout())
                if result < 0 && errno != EINTR {
                    fatalError("poll failed: errno \(errno)")
                }
                if result > 0 {
                    if descriptors[0].revents != 0 {
                        while read(wakeDescriptor, &drainBuffer, drainBuffer.count) > 0 {}
                    }
                    watches.handle(descriptors[1...], watched)
                }
            }
            watches.handleExpiredTimeouts()
        }
    }

    private func takeJobsPending() -> Bool {
        queue.withLock { !$0.jobs.isEmpty || $0.stopping }
    }
}

/// The loop is also a task executor: code run with `withTaskExecutorPreference(connection.executor)` runs on the
/// connection's own thread, so replies resume it without waking another thread.
extension EventLoop: TaskExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let accepted = submit { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
        if !accepted {
            // The connection is gone; the task still has to run to its end, elsewhere.
            globalConcurrentExecutor.enqueue(job)
        }
    }
}

/// The libdbus watches and timeouts of one connection, touched only on its loop thread.
///
/// libdbus calls the add/remove/toggle functions from inside its own calls, which all happen on the loop thread.
final class WatchSet {
    private var watches: [OpaquePointer] = []
    private var timeouts: [(timeout: OpaquePointer, deadline: UInt64)] = []
    private let connection: OpaquePointer
    /// Called on the loop thread when the loop ends, to release the connection.
    var onShutdown: (() -> Void)?

    init(connection: OpaquePointer) {
        self.connection = connection
        let context = Unmanaged.passUnretained(self).toOpaque()
        dbus_connection_set_watch_functions(
            connection,
            { watch, data in
                Unmanaged<WatchSet>.fromOpaque(data!).takeUnretainedValue().watches.append(watch!)
                return 1
            },
            { watch, data in
                Unmanaged<WatchSet>.fromOpaque(data!).takeUnretainedValue().watches.removeAll { $0 == watch }
            },
            nil,  // Enabled state is read before every poll.
            context, nil
        )
        dbus_connection_set_timeout_functions(
            connection,
            { timeout, data in
                let set = Unmanaged<WatchSet>.fromOpaque(data!).takeUnretainedValue()
                set.timeouts.append((timeout!, WatchSet.deadline(for: timeout!)))
                return 1
            },
            { timeout, data in
                Unmanaged<WatchSet>.fromOpaque(data!).takeUnretainedValue().timeouts.removeAll { $0.timeout == timeout }
            },
            { timeout, data in
                let set = Unmanaged<WatchSet>.fromOpaque(data!).takeUnretainedValue()
                if let index = set.timeouts.firstIndex(where: { $0.timeout == timeout }) {
                    set.timeouts[index].deadline = WatchSet.deadline(for: timeout!)
                }
            },
            context, nil
        )
    }

    static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    private static func deadline(for timeout: OpaquePointer) -> UInt64 {
        now() + UInt64(max(0, dbus_timeout_get_interval(timeout))) * 1_000_000
    }

    /// Dispatches every message libdbus has read and parsed.
    func dispatch() {
        while dbus_connection_get_dispatch_status(connection) == DBUS_DISPATCH_DATA_REMAINS {
            dbus_connection_dispatch(connection)
        }
    }

    /// Appends a `pollfd` for each enabled watch and returns those watches, index for index.
    func pollDescriptors(into descriptors: inout [pollfd]) -> [OpaquePointer] {
        var watched: [OpaquePointer] = []
        for watch in watches where dbus_watch_get_enabled(watch) != 0 {
            let flags = dbus_watch_get_flags(watch)
            var events: Int16 = 0
            if flags & CDBUS_WATCH_READABLE != 0 { events |= Int16(POLLIN) }
            if flags & CDBUS_WATCH_WRITABLE != 0 { events |= Int16(POLLOUT) }
            descriptors.append(pollfd(fd: dbus_watch_get_unix_fd(watch), events: events, revents: 0))
            watched.append(watch)
        }
        return watched
    }

    /// Milliseconds until the nearest enabled timeout, or -1 to sleep until woken.
    func pollTimeout() -> Int32 {
        let enabled = timeouts.filter { dbus_timeout_get_enabled($0.timeout) != 0 }
        guard let nearest = enabled.map(\.deadline).min() else { return -1 }
        let current = Self.now()
        guard nearest > current else { return 0 }
        return Int32(min((nearest - current + 999_999) / 1_000_000, UInt64(Int32.max)))
    }

    func handle(_ descriptors: ArraySlice<pollfd>, _ watched: [OpaquePointer]) {
        for (descriptor, watch) in zip(descriptors, watched) where descriptor.revents != 0 {
            // Handling one watch can remove another: only handle watches libdbus still has.
            guard watches.contains(watch) else { continue }
            var flags: UInt32 = 0
            if descriptor.revents & Int16(POLLIN) != 0 { flags |= CDBUS_WATCH_READABLE }
            if descriptor.revents & Int16(POLLOUT) != 0 { flags |= CDBUS_WATCH_WRITABLE }
            if descriptor.revents & Int16(POLLERR) != 0 { flags |= CDBUS_WATCH_ERROR }
            if descriptor.revents & Int16(POLLHUP) != 0 { flags |= CDBUS_WATCH_HANGUP }
            dbus_watch_handle(watch, flags)
        }
    }

    func handleExpiredTimeouts() {
        guard !timeouts.isEmpty else { return }
        let current = Self.now()
        let expired = timeouts.filter { dbus_timeout_get_enabled($0.timeout) != 0 && $0.deadline <= current }
        for entry in expired where timeouts.contains(where: { $0.timeout == entry.timeout }) {
            dbus_timeout_handle(entry.timeout)
            if let index = timeouts.firstIndex(where: { $0.timeout == entry.timeout }) {
                timeouts[index].deadline = Self.deadline(for: entry.timeout)
            }
        }
    }

    func shutdown() {
        onShutdown?()
        onShutdown = nil
    }
}
