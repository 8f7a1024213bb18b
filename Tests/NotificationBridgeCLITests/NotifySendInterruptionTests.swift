import Testing

@testable import NotificationBridgeCommands

/// Ctrl-C once notify-send has sent its notification: the wait gets it, also when it came before the wait started (the
/// server may show the notification before its answer is read), so the notification the user saw is closed. Before
/// anything is sent, Ctrl-C ends the program with 130, which the process tests check.
@Suite("notify-send's Ctrl-C")
struct NotifySendInterruptionTests {
    @Test("a Ctrl-C while the notification is sent reaches the wait once it starts, and one during the wait at once")
    func interruptionsReachTheWait() async throws {
        let interruption = NotifySendInterruption()
        interruption.sending()
        interruption.interrupted()
        let (events, continuation) = AsyncStream.makeStream(of: NotifySendWait.Event.self)
        interruption.startWaiting(continuation)
        interruption.interrupted()
        continuation.finish()
        var received: [NotifySendWait.Event] = []
        for await event in events { received.append(event) }
        #expect(received == [.interrupted, .interrupted])
    }

    @Test("without a Ctrl-C the wait starts with nothing from it")
    func noInterruption() async {
        let interruption = NotifySendInterruption()
        interruption.sending()
        let (events, continuation) = AsyncStream.makeStream(of: NotifySendWait.Event.self)
        interruption.startWaiting(continuation)
        continuation.finish()
        var received: [NotifySendWait.Event] = []
        for await event in events { received.append(event) }
        #expect(received.isEmpty)
    }
}
