import DBusCore

/// The arguments of one `org.freedesktop.Notifications.Notify` call.
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
    /// `actions`: key, label, key, label, …
    package var actions: [String]
    /// `hints`.
    package var hints: [String: DBusValue]
    /// `expire_timeout` in milliseconds: -1 server default, 0 never.
    package var expireTimeout: Int32

    /// The call's arguments, in order, typed as `Notify` takes them (`susssasa{sv}i`).
    package var arguments: [DBusValue] {
        [
            .string(appName), .uint32(replacesID), .string(appIcon), .string(summary), .string(body),
            .strings(actions), .vardict(hints), .int32(expireTimeout),
        ]
    }
}
