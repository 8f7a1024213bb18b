import DBusCore

/// The arguments of one `org.freedesktop.Notifications.Notify` call, as a client sends them and a server reads them.
package struct NotifyRequest: Sendable, Hashable {
    /// `app_name`.
    package var appName: String
    /// `replaces_id`: 0 for a new notification.
    package var replacesID: UInt32
    /// `app_icon`: an icon name or a `file://` URI.
    package var appIcon: String
    /// `summary`.
    package var summary: String
    /// `body`, escaped when the server reads markup.
    package var body: String
    /// `actions`: key, label, key, label, … (a server may be sent an odd count, and decides what to do with it).
    package var actions: [String]
    /// `hints`, each the value inside its variant.
    package var hints: [String: DBusValue]
    /// `expire_timeout` in milliseconds: -1 server default, 0 never.
    package var expireTimeout: Int32

    /// Makes a request from its arguments.
    package init(
        appName: String, replacesID: UInt32, appIcon: String, summary: String, body: String, actions: [String],
        hints: [String: DBusValue], expireTimeout: Int32
    ) {
        self.appName = appName
        self.replacesID = replacesID
        self.appIcon = appIcon
        self.summary = summary
        self.body = body
        self.actions = actions
        self.hints = hints
        self.expireTimeout = expireTimeout
    }

    /// Decodes a call's arguments, `susssasa{sv}i`, as a server receives them.
    ///
    /// - Throws: `DBusFailure` (`InvalidArgs`) when the arguments have another signature.
    package init(arguments: [DBusValue]) throws(DBusFailure) {
        let decoded = try arguments.decode(
            String.self, UInt32.self, String.self, String.self, String.self, [String].self,
            [String: DBusVariant].self, Int32.self)
        self.init(
            appName: decoded.0, replacesID: decoded.1, appIcon: decoded.2, summary: decoded.3, body: decoded.4,
            actions: decoded.5, hints: decoded.6.mapValues(\.value), expireTimeout: decoded.7)
    }

    /// The call's arguments, in order, typed as `Notify` takes them (`susssasa{sv}i`).
    package var arguments: [DBusValue] {
        [
            .string(appName), .uint32(replacesID), .string(appIcon), .string(summary), .string(body),
            .strings(actions), .vardict(hints), .int32(expireTimeout),
        ]
    }
}
