import DBusCore

/// The arguments of one `org.freedesktop.Notifications.Notify` call.
public struct NotifyRequest: Sendable, Hashable {
    /// `app_name`.
    public var appName: String
    /// `replaces_id`: 0 for a new notification.
    public var replacesID: UInt32
    /// `app_icon`: an icon name or a `file://` URI.
    public var appIcon: String
    /// `summary`.
    public var summary: String
    /// `body`, escaped when the server reads markup.
    public var body: String
    /// `actions`: key, label, key, label, …
    public var actions: [String]
    /// `hints`.
    public var hints: [String: DBusValue]
    /// `expire_timeout` in milliseconds: -1 server default, 0 never.
    public var expireTimeout: Int32

    /// The call's arguments, in order, typed as `Notify` takes them (`susssasa{sv}i`).
    public var arguments: [DBusValue] {
        [
            .string(appName), .uint32(replacesID), .string(appIcon), .string(summary), .string(body),
            .strings(actions), .vardict(hints), .int32(expireTimeout),
        ]
    }
}
