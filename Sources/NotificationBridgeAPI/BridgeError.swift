import DBusCore

/// An error of `io.github.NotificationBridge1`: a name that says what kind of problem, sent with a message that says
/// what to change.
///
/// Clients recognise a received failure with ``init(_:)`` and switch on the typed values:
///
/// ```swift
/// catch let failure as DBusFailure where BridgeError(failure) == .unknownCategory { … }
/// ```
///
/// Wrong argument *types* (a call whose signature does not match) are refused before any of these by DBusCore, with
/// `org.freedesktop.DBus.Error.InvalidArgs`.
public struct BridgeError: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The D-Bus error name, e.g. `io.github.NotificationBridge1.Error.InvalidArgument`.
    public let rawValue: String

    /// Wraps a D-Bus error name; any name is accepted, so that names of later versions can be carried.
    public init(rawValue: String) { self.rawValue = rawValue }

    private init(_ suffix: String) { rawValue = BridgeAPI.errorPrefix + suffix }

    /// The kind of error a received failure is, or `nil` when it is not one of the interface's (a bus error, a
    /// timeout).
    public init?(_ failure: DBusFailure) {
        guard failure.name.hasPrefix(BridgeAPI.errorPrefix) else { return nil }
        rawValue = failure.name
    }

    public var description: String { rawValue }

    /// `io.github.NotificationBridge1.Error.InvalidArgument`: a value is missing, of the wrong type inside a variant,
    /// out of range, or a key is unknown.
    public static let invalidArgument = BridgeError("InvalidArgument")
    /// `io.github.NotificationBridge1.Error.UnknownCategory`: the category is not registered.
    public static let unknownCategory = BridgeError("UnknownCategory")
    /// `io.github.NotificationBridge1.Error.UnknownNotification`: no notification has this id (it was never posted,
    /// or it ended before the daemon last restarted, or so long ago that not even its id is remembered; one that
    /// ended a while ago gets ``expired``).
    public static let unknownNotification = BridgeError("UnknownNotification")
    /// `io.github.NotificationBridge1.Error.NotSupported`: the request is well formed but the daemon cannot do it.
    public static let notSupported = BridgeError("NotSupported")
    /// `io.github.NotificationBridge1.Error.Closed`: the notification closed (expired, dismissed, withdrawn) without
    /// a response.
    public static let closed = BridgeError("Closed")
    /// `io.github.NotificationBridge1.Error.Expired`: the notification ended so long ago that the daemon no longer
    /// keeps it, nor a response kept for it; the id was right. A late `WaitForResponse` gets it where an id that was
    /// never issued gets ``unknownNotification``.
    public static let expired = BridgeError("Expired")
    /// `io.github.NotificationBridge1.Error.ShuttingDown`: the daemon is stopping; call again once it is back.
    public static let shuttingDown = BridgeError("ShuttingDown")
    /// `io.github.NotificationBridge1.Error.ServerError`: the notification server refused the request.
    public static let serverError = BridgeError("ServerError")
    /// `io.github.NotificationBridge1.Error.NoServer`: no notification server runs on the session bus, so nothing can
    /// be shown now (scheduled notifications are kept, and shown once a server is there).
    public static let noServer = BridgeError("NoServer")
    /// `io.github.NotificationBridge1.Error.ServerTimeout`: the notification server did not answer within the
    /// daemon's bound.
    public static let serverTimeout = BridgeError("ServerTimeout")
    /// `io.github.NotificationBridge1.Error.UnknownApp`: the calling connection is not attached as that app.
    public static let unknownApp = BridgeError("UnknownApp")
    /// `io.github.NotificationBridge1.Error.LimitExceeded`: too many of something at once (waiting calls,
    /// categories, an app's scheduled notifications); the message says which limit and how to free it.
    public static let limitExceeded = BridgeError("LimitExceeded")
    /// `io.github.NotificationBridge1.Error.NotAllowed`: the user's notification settings keep the notification from
    /// being shown (the app's notifications are off, or shown in no way this server offers); the message says which
    /// setting, and how to change it.
    public static let notAllowed = BridgeError("NotAllowed")

    /// This error with a message, ready to throw or to send.
    public func failure(_ message: String) -> DBusFailure { DBusFailure(name: rawValue, message: message) }

    /// An ``invalidArgument`` failure with `message`.
    public static func invalid(_ message: String) -> DBusFailure { invalidArgument.failure(message) }

    /// Whether a received error name is this error's: lets `failure.name == BridgeError.noServer` read as it says.
    package static func == (name: String, error: BridgeError) -> Bool { name == error.rawValue }
}

extension DBusFailure {
    /// A failure of the interface: `error`'s name with `message`.
    public init(name error: BridgeError, message: String) {
        self.init(name: error.rawValue, message: message)
    }
}

extension DBusMethodCall {
    /// Answers a deferred call with one of the interface's errors.
    package func fail(name error: BridgeError, message: String) {
        fail(name: error.rawValue, message: message)
    }
}

/// Quotes text a caller sent for an error message, cut short so that a huge value cannot make a huge message.
package func quotedForMessage(_ text: String, limit: Int = 64) -> String {
    let shown = text.count > limit ? String(text.prefix(limit)) + "…" : text
    return DBusValue.string(shown).description
}
