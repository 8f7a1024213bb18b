import DBusCore

/// The errors of `io.github.NotificationBridge1`: a name that says what kind of problem, and a message that says what
/// to change.
///
/// Wrong argument *types* (a call whose signature does not match) are refused before any of these by DBusCore, with
/// `org.freedesktop.DBus.Error.InvalidArgs`.
public enum BridgeError {
    /// `io.github.NotificationBridge1.Error.InvalidArgument`: a value is missing, of the wrong type inside a variant,
    /// out of range, or a key is unknown.
    public static let invalidArgument = BridgeAPI.errorPrefix + "InvalidArgument"
    /// `…Error.UnknownCategory`: the category is not registered.
    public static let unknownCategory = BridgeAPI.errorPrefix + "UnknownCategory"
    /// `…Error.UnknownNotification`: no notification has this id (it was never posted, or it is long gone).
    public static let unknownNotification = BridgeAPI.errorPrefix + "UnknownNotification"
    /// `…Error.NotSupported`: the request is well formed but the daemon cannot do it (yet).
    public static let notSupported = BridgeAPI.errorPrefix + "NotSupported"
    /// `…Error.Closed`: the notification closed (expired, dismissed, withdrawn) without a response.
    public static let closed = BridgeAPI.errorPrefix + "Closed"
    /// `…Error.ShuttingDown`: the daemon is stopping; call again once it is back.
    public static let shuttingDown = BridgeAPI.errorPrefix + "ShuttingDown"
    /// `…Error.ServerError`: the notification server refused the request or did not answer.
    public static let serverError = BridgeAPI.errorPrefix + "ServerError"
    /// `…Error.NoServer`: no notification server runs on the session bus, so nothing can be shown now (scheduled
    /// notifications are kept, and shown once a server is there).
    public static let noServer = BridgeAPI.errorPrefix + "NoServer"
    /// `…Error.ServerTimeout`: the notification server did not answer in time; it may be hung.
    public static let serverTimeout = BridgeAPI.errorPrefix + "ServerTimeout"
    /// `…Error.UnknownApp`: the calling connection is not attached as that app.
    public static let unknownApp = BridgeAPI.errorPrefix + "UnknownApp"
    /// `…Error.LimitExceeded`: too many of something at once (waiting calls).
    public static let limitExceeded = BridgeAPI.errorPrefix + "LimitExceeded"

    static func invalid(_ message: String) -> DBusFailure { DBusFailure(name: invalidArgument, message: message) }
}

/// Quotes text a caller sent for an error message, cut short so that a huge value cannot make a huge message.
func quotedForMessage(_ text: String, limit: Int = 64) -> String {
    let shown = text.count > limit ? String(text.prefix(limit)) + "…" : text
    return DBusValue.string(shown).description
}
