internal import CLinux

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Reports each time the wall clock is set (by the user, `date -s`, or NTP stepping it): the kernel cancels a
/// `timerfd` armed with `TFD_TIMER_CANCEL_ON_SET`, which a thread of its own waits for.
///
/// The thread sleeps in `poll` with no timeout, so an idle daemon still never wakes; ending the stream (the consumer
/// stops iterating) wakes it through an `eventfd` and it exits.
package enum WallClockSteps {
    /// A stream with one element per step, or `nil` when the kernel offers no such timer.
    package static func follow() -> AsyncStream<Void>? {
        let timer = timerfd_create(CLOCK_REALTIME, Int32(TFD_CLOEXEC))
        guard timer >= 0 else { return nil }
        let stop = eventfd(0, Int32(EFD_CLOEXEC))
        guard stop >= 0, arm(timer) else {
            close(timer)
            if stop >= 0 { close(stop) }
            return nil
        }
        let (steps, sink) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        sink.onTermination = { _ in
            var one: UInt64 = 1
            _ = write(stop, &one, MemoryLayout<UInt64>.size)
        }
        let watcher = Watcher(timer: timer, stop: stop, sink: sink)
        let context = Unmanaged.passRetained(watcher).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(
            &thread, nil,
            { context in
                Unmanaged<Watcher>.fromOpaque(context!).takeRetainedValue().run()
                return nil
            }, context)
        guard created == 0 else {
            Unmanaged<Watcher>.fromOpaque(context).release()
            sink.finish()
            return nil
        }
        pthread_detach(thread)
        return steps
    }

    /// Arms `timer` for a time that never comes, cancelled by the kernel when the wall clock is set.
    private static func arm(_ timer: Int32) -> Bool {
        var spec = itimerspec()
        spec.it_value.tv_sec = Int.max / 2
        return timerfd_settime(timer, Int32(TFD_TIMER_ABSTIME) | Int32(TFD_TIMER_CANCEL_ON_SET), &spec, nil) == 0
    }

    /// The thread's state: the two descriptors it owns and closes, and where it reports.
    private final class Watcher: @unchecked Sendable {
        // Used by the watcher's thread alone once it starts.
        let timer: Int32
        let stop: Int32
        let sink: AsyncStream<Void>.Continuation

        init(timer: Int32, stop: Int32, sink: AsyncStream<Void>.Continuation) {
            self.timer = timer
            self.stop = stop
            self.sink = sink
        }

        func run() {
            defer {
                close(timer)
                close(stop)
                sink.finish()
            }
            var descriptors = [
                pollfd(fd: timer, events: Int16(POLLIN), revents: 0),
                pollfd(fd: stop, events: Int16(POLLIN), revents: 0),
            ]
            while true {
                let ready = poll(&descriptors, 2, -1)
                if ready < 0 {
                    if errno == EINTR { continue }
                    return
                }
                if descriptors[1].revents != 0 { return }
                var expirations: UInt64 = 0
                if read(timer, &expirations, MemoryLayout<UInt64>.size) < 0, errno == ECANCELED {
                    sink.yield()
                }
                guard WallClockSteps.arm(timer) else { return }
            }
        }
    }
}
