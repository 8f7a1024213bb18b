/// Awaits `operation`, but no longer than `limit`: the tests' bound on every wait for an event.
///
/// - Throws: ``TestSupportError`` saying what was awaited when the limit passes, or what `operation` threw.
public func withTimeout<T: Sendable>(
    _ limit: Duration = .seconds(60), waitingFor what: String,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        defer { group.cancelAll() }
        guard let result = try await group.next(), let value = result else {
            throw TestSupportError("timed out after \(limit) waiting for \(what)")
        }
        return value
    }
}

extension AsyncStream where Element: Sendable {
    /// The next element, waiting no longer than `limit`.
    ///
    /// - Throws: ``TestSupportError`` when the stream ends or the limit passes first.
    public func first(within limit: Duration = .seconds(10), waitingFor what: String) async throws -> Element {
        let stream = self
        return try await withTimeout(limit, waitingFor: what) {
            var iterator = stream.makeAsyncIterator()
            guard let element = await iterator.next() else {
                throw TestSupportError("the stream ended while waiting for \(what)")
            }
            return element
        }
    }
}
