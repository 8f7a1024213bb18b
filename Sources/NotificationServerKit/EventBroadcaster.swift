import Synchronization

/// Hands each ``NotificationServerEvent`` to every stream made by ``subscribe()``, in the order they were yielded.
///
/// A class with a lock rather than part of the actor so that subscribing is synchronous: a test subscribes, then
/// triggers the client, and cannot miss the event in between.
final class EventBroadcaster: Sendable {
    private struct State {
        var nextID: UInt64 = 0
        var continuations: [UInt64: AsyncStream<NotificationServerEvent>.Continuation] = [:]
    }

    private let state = Mutex(State())

    deinit {
        finishAll()
    }

    /// A new stream of every event from now on; it buffers without limit.
    func subscribe() -> AsyncStream<NotificationServerEvent> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: NotificationServerEvent.self, bufferingPolicy: .unbounded)
        let id = state.withLock { state -> UInt64 in
            defer { state.nextID += 1 }
            state.continuations[state.nextID] = continuation
            return state.nextID
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    func yield(_ event: NotificationServerEvent) {
        let continuations = state.withLock { Array($0.continuations.values) }
        for continuation in continuations { continuation.yield(event) }
    }

    func finishAll() {
        let continuations = state.withLock { state in
            defer { state.continuations = [:] }
            return Array(state.continuations.values)
        }
        for continuation in continuations { continuation.finish() }
    }
}
