import Synchronization

/// A value the daemon's actor writes and the bus's connection thread reads, for a property a client gets: a lock
/// around it, shared by reference so that both sides see one value.
final class ReportedValue<Value: Sendable>: Sendable {
    private let value: Mutex<Value>

    init(_ initial: Value) {
        value = Mutex(initial)
    }

    /// Runs `body` with the value, under the lock.
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        value.withLock { body(&$0) }
    }
}
