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
    /// What the error means, in one sentence, for the interface's reference (the introspection XML and the manual
    /// page); empty for a name this version does not know.
    public let meaning: String

    /// Wraps a D-Bus error name; any name is accepted, so that names of later versions can be carried.
    public init(rawValue: String) {
        self.rawValue = rawValue
        meaning = Self.all.first { $0.rawValue == rawValue }?.meaning ?? ""
    }

    private init(_ suffix: String, meaning: String = "") {
        rawValue = BridgeAPI.errorPrefix + suffix
        self.meaning = meaning
    }

    /// The kind of error a received failure is, or `nil` when it is not one of the interface's (a bus error, a
    /// timeout).
    public init?(_ failure: DBusFailure) {
        guard failure.name.hasPrefix(BridgeAPI.errorPrefix) else { return nil }
        self.init(rawValue: failure.name)
    }

    /// The error name.
    public var description: String { rawValue }

    /// `io.github.NotificationBridge1.Error.InvalidArgument`: a value is missing, of the wrong type inside a variant,
    /// out of range, or a key is unknown.
    public static let invalidArgument = BridgeError(
        "InvalidArgument",
        meaning: "A value is missing, of the wrong type inside a variant, out of range, or a key is unknown.")
    /// `io.github.NotificationBridge1.Error.UnknownCategory`: the category is not registered.
    public static let unknownCategory = BridgeError(
        "UnknownCategory",
        meaning: "The category is not registered.")
    /// `io.github.NotificationBridge1.Error.UnknownNotification`: no notification has this id (it was never posted,
    /// or it ended before the daemon last restarted, or so long ago that not even its id is remembered; one that
    /// ended a while ago gets ``expired``).
    public static let unknownNotification = BridgeError(
        "UnknownNotification",
        meaning: "No notification has this id: it was never posted, or it ended before the daemon last restarted, or"
            + " so long ago that not even its id is remembered (one that ended a while ago gets Expired).")
    /// `io.github.NotificationBridge1.Error.NotSupported`: the request is well formed but the daemon cannot do it.
    public static let notSupported = BridgeError(
        "NotSupported",
        meaning: "The request is well formed but the daemon cannot do it.")
    /// `io.github.NotificationBridge1.Error.Closed`: the notification closed (expired, dismissed, withdrawn) without
    /// a response.
    public static let closed = BridgeError(
        "Closed",
        meaning: "The notification closed (expired, dismissed, withdrawn) without a response.")
    /// `io.github.NotificationBridge1.Error.Expired`: the notification ended so long ago that the daemon no longer
    /// keeps it, nor a response kept for it; the id was right. A late `WaitForResponse` gets it where an id that was
    /// never issued gets ``unknownNotification``.
    public static let expired = BridgeError(
        "Expired",
        meaning: "The notification ended so long ago that the daemon no longer keeps it, nor a response kept for it;"
            + " the id was right. Wait for a response sooner after posting.")
    /// `io.github.NotificationBridge1.Error.ShuttingDown`: the daemon is stopping; call again once it is back.
    public static let shuttingDown = BridgeError(
        "ShuttingDown",
        meaning: "The daemon is stopping; call again once it is back.")
    /// `io.github.NotificationBridge1.Error.ServerError`: the notification server refused the request.
    public static let serverError = BridgeError(
        "ServerError",
        meaning: "The notification server refused the request.")
    /// `io.github.NotificationBridge1.Error.NoServer`: no notification server runs on the session bus, so nothing can
    /// be shown now (scheduled notifications are kept, and shown once a server is there).
    public static let noServer = BridgeError(
        "NoServer",
        meaning: "No notification server runs on the session bus, so nothing can be shown now (scheduled notifications"
            + " are kept, and shown once a server is there).")
    /// `io.github.NotificationBridge1.Error.ServerTimeout`: the notification server did not answer within the
    /// daemon's bound.
    public static let serverTimeout = BridgeError(
        "ServerTimeout",
        meaning: "The notification server did not answer within the daemon's bound.")
    /// `io.github.NotificationBridge1.Error.UnknownApp`: the calling connection is not attached as that app.
    public static let unknownApp = BridgeError(
        "UnknownApp",
        meaning: "The calling connection is not attached as that app.")
    /// `io.github.NotificationBridge1.Error.LimitExceeded`: too many of something at once (waiting calls,
    /// categories, an app's scheduled notifications); the message says which limit and how to free it.
    public static let limitExceeded = BridgeError(
        "LimitExceeded",
        meaning: "Too many of something at once (waiting calls, attached names and categories of one connection or"
            + " app, an app's scheduled notifications); the message says which limit and how to free it.")
    /// `io.github.NotificationBridge1.Error.NotAllowed`: the user's notification settings keep the notification from
    /// being shown (the app's notifications are off, or shown in no way this server offers); the message says which
    /// setting, and how to change it.
    public static let notAllowed = BridgeError(
        "NotAllowed",
        meaning: "The user's notification settings keep the notification from being shown (the app's notifications are"
            + " off, or shown in no way this server offers); the message says which setting, and how to change it.")
    /// `io.github.NotificationBridge1.Error.AccessDenied`: a sandboxed app (Flatpak, Snap) asked for what only the host
    /// may do (run a command through `exec`) or acted on another app (its notifications, settings, categories or name);
    /// the message says which, and what the app may do instead.
    public static let accessDenied = BridgeError(
        "AccessDenied",
        meaning: "A sandboxed app (Flatpak, Snap) asked for what only the host may do (run a command through exec) or"
            + " acted on another app (its notifications, settings, categories or name); the message says which, and"
            + " what the app may do instead.")

    /// `io.github.NotificationBridge1.Error.NotAnswerable`: `Act` or `Present` named a notification of the history that
    /// cannot be answered any more (the user dismissed it, its app withdrew or replaced it, or it was answered); the
    /// message says which, and what to do instead.
    public static let notAnswerable = BridgeError(
        "NotAnswerable",
        meaning: "The notification of the history cannot be answered any more: the user dismissed it, its app withdrew"
            + " or replaced it, or it was answered already; the message says which, and what to do instead.")

    /// Every error the interface answers with, in the order its reference lists them. The introspection XML and the
    /// manual page take their list from here: an error added to the interface is added here too.
    public static let all: [BridgeError] = [
        invalidArgument, unknownCategory, unknownNotification, notSupported, closed, shuttingDown, serverError,
        noServer, serverTimeout, unknownApp, limitExceeded, notAllowed, accessDenied, expired, notAnswerable,
    ]

    /// The name after the interface's error prefix, e.g. `InvalidArgument`.
    public var shortName: String {
        rawValue.hasPrefix(BridgeAPI.errorPrefix) ? String(rawValue.dropFirst(BridgeAPI.errorPrefix.count)) : rawValue
    }

    /// Two errors are the same when their names are.
    public static func == (left: BridgeError, right: BridgeError) -> Bool { left.rawValue == right.rawValue }

    /// Hashes the name only, as ``==(_:_:)`` compares it.
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

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
