import NotificationBridge

extension LocalNotificationClient {
    /// Runs `body` while the client's `run()` runs beside it in a task group, then cancels it (also when `body`
    /// throws), as an app runs it.
    nonisolated func running<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await self.run() }
            defer { group.cancelAll() }
            return try await body()
        }
    }
}
