import FreedesktopNotifications

/// A server signal as it arrived: what it says, and the unique name of the connection that sent it.
struct ReceivedServerSignal: Sendable, Hashable {
    var signal: ServerSignal
    /// The sender's unique name (`:1.42`); `nil` for a signal the center stands in for (an expiry the server does not
    /// report).
    var sender: String?
}
