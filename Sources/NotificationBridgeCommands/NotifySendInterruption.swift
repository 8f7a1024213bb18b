import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Ctrl-C for notify-send, as libnotify's notify-send takes it: before the notification is sent it ends the program as
/// an interrupted one ends (status 130); once it is sent it becomes the wait's ``NotifySendWait/Event/interrupted``,
/// which closes it. A Ctrl-C between sending and the start of the wait (the server may already show it) is kept for the
/// wait: the notification the user saw is closed, not left behind.
///
/// ``interrupted()`` is called on the event loop's thread with each `SIGINT` (``runToEnd(signals:onSignal:_:)``).
final class NotifySendInterruption: Sendable {
    private enum Stage {
        /// Nothing sent yet: Ctrl-C ends the program.
        case starting
        /// The notification is being sent; whether Ctrl-C came meanwhile.
        case sending(interrupted: Bool)
        /// Ctrl-C goes to the wait's events.
        case waiting(AsyncStream<NotifySendWait.Event>.Continuation)
    }

    private let stage = Mutex(Stage.starting)

    /// The notification is about to be sent: from now on Ctrl-C is for the wait.
    func sending() {
        stage.withLock { $0 = .sending(interrupted: false) }
    }

    /// From now on, Ctrl-C is delivered to `events`; one that came while the notification was sent is delivered now.
    func startWaiting(_ events: AsyncStream<NotifySendWait.Event>.Continuation) {
        let interrupted = stage.withLock { stage -> Bool in
            defer { stage = .waiting(events) }
            if case .sending(interrupted: true) = stage { return true }
            return false
        }
        if interrupted { events.yield(.interrupted) }
    }

    /// Handles one `SIGINT`.
    func interrupted() {
        let waiting = stage.withLock { stage -> (ends: Bool, events: AsyncStream<NotifySendWait.Event>.Continuation?) in
            switch stage {
            case .starting: return (true, nil)
            case .sending:
                stage = .sending(interrupted: true)
                return (false, nil)
            case .waiting(let events): return (false, events)
            }
        }
        if waiting.ends {
            fflush(nil)
            _exit(130)
        }
        waiting.events?.yield(.interrupted)
    }
}
