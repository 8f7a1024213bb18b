import DBusCore

/// When a ``NotificationServer`` answers `Notify`: a busy or hung server, for testing what its clients do meanwhile.
///
/// The server answers calls one at a time, as the single-threaded servers do, so a slow `Notify` also delays the calls
/// that come after it.
public enum NotifyAnswer: Sendable, Hashable {
    /// At once.
    case immediately
    /// After this long, for each `Notify`.
    case after(Duration)
    /// Never: the call is held unanswered until the server leaves the bus (or a later
    /// ``NotificationServer/setNotifyAnswer(_:)`` lets it go), so the client's own timeout is what ends it.
    case never
    /// At once, with this error, as a server that will not take the notification (out of memory, over a quota): the
    /// server shows nothing new and keeps what it shows.
    case refusing(DBusFailure)
}
