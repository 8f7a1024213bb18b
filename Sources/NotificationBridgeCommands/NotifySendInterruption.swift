import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Ctrl-C for notify-send, as libnotify's notify-send takes it: before the wait starts it ends the program as an
/// interrupted one ends (status 130); during the wait it becomes the wait's ``NotifySendWait/Event/interrupted``.
///
/// ``interrupted()`` is called on the event loop's thread with each `SIGINT` (``runToEnd(signals:onSignal:_:)``).
final class NotifySendInterruption: Sendable {
    private let waiting = Mutex<AsyncStream<NotifySendWait.Event>.Continuation?>(nil)

    /// From now on, Ctrl-C is delivered to `events`.
    func startWaiting(_ events: AsyncStream<NotifySendWait.Event>.Continuation) {
        waiting.withLock { $0 = events }
    }

    /// Handles one `SIGINT`.
    func interrupted() {
        guard let events = waiting.withLock({ $0 }) else {
            fflush(nil)
            _exit(130)
        }
        events.yield(.interrupted)
    }
}
