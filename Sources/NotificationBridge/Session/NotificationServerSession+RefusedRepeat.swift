import DBusCore
import FreedesktopNotifications

/// A `Notify` that the server refuses as a repeat of one it has just taken (Plasma, within a second), sent again.
extension NotificationServerSession {
    /// The error a server gives for a `Notify` identical to one it took a moment before: "Created too many similar
    /// notifications in quick succession".
    static let excessNotificationGeneration = "org.freedesktop.Notifications.Error.ExcessNotificationGeneration"

    /// Calls `Notify`; where the server refuses the call as a repeat
    /// (``NotificationServerInfo/refusesRepeatsWithin``), waits out the server's window and sends the same call
    /// again, unchanged, as often as it is refused within ``Configuration/serverTimeout`` of the first refusal. So
    /// each of a burst of identical notifications is shown, one a second, with the text the app gave; the caller
    /// learns the server's refusal only when the burst outlasts that time.
    ///
    /// - Throws: `DBusFailure` as ``notifyOnce(_:destination:)`` does, and the server's refusal when it lasts.
    func notify(
        _ request: NotifyRequest, destination: String = NotificationServerClient.busName
    ) async throws -> (id: UInt32, server: String) {
        var firstRefusal: ContinuousClock.Instant?
        while true {
            do {
                return try await notifyOnce(request, destination: destination)
            } catch let refusal as DBusFailure where refusal.name == Self.excessNotificationGeneration {
                let now = ContinuousClock.now
                let since = firstRefusal ?? now
                firstRefusal = since
                guard let window = serverInfo.refusesRepeatsWithin, now + window - since <= serverTimeout else {
                    throw refusal
                }
                logger.debug(
                    "the server refused a repeated notification; sending it again once its window has passed",
                    metadata: ["server.refusal-window": "\(window)"])
                try await Task.sleep(for: window)
            }
        }
    }
}
