/// What a server does with an `actions` list of odd length (a key without a label).
public enum OddActionListPolicy: Sendable, Hashable {
    /// Drop every action, as Plasma does: the notification is shown without buttons.
    case dropAll
    /// Keep the complete pairs and ignore the last key, as dunst and GNOME Shell do.
    case dropUnpairedKey
    /// Refuse the call with `org.freedesktop.DBus.Error.InvalidArgs`, as mako does (its `sd_bus_message_read("ss")`
    /// fails on the lone key).
    case refuse
}

/// What a server does with an `urgency` hint that is not a byte (`y`), such as the `int32` that `gdbus call` makes of
/// `<2>`.
public enum UrgencyHintPolicy: Sendable, Hashable {
    /// Read any integer type (a byte, `u`, `i`, …) as the urgency level, as mako does for `u` and `i`.
    case anyInteger
    /// Read only a byte; any other type is ignored and the notification has normal urgency. This is what dunst's
    /// source does (`g_variant_lookup_value(hints, "urgency", G_VARIANT_TYPE_BYTE)`).
    case byteOnly
    /// Refuse the call with `org.freedesktop.DBus.Error.InvalidArgs` naming the type that was sent: the strictest
    /// reading of the specification.
    case byteRequired
}

/// What a server answers to `CloseNotification` for an id it does not know (never used, or already closed).
public enum UnknownIDClosePolicy: Sendable, Hashable {
    /// Answer success and send nothing, as GNOME Shell, Plasma, dunst, mako and xfce4-notifyd do.
    case ignore
    /// Refuse id 0 with `org.freedesktop.Notifications.InvalidId`, ignore any other unknown id, as notification-daemon
    /// does.
    case refuseZero
    /// Refuse every unknown id with `org.freedesktop.Notifications.InvalidId`, as the specification's text asks.
    case refuse
}

/// What a server does when a notification's timeout passes.
public enum ExpiryBehavior: Sendable, Hashable {
    /// Close it with `NotificationClosed(id, 1)`.
    case close
    /// Close transient notifications with `NotificationClosed(id, 1)`; others leave the screen with no signal at all,
    /// as notification-daemon does (its client is never told).
    case closeTransientOnly
    /// Keep it, with no signal: the bubble leaves the screen and the notification waits in the server's notification
    /// centre, where its actions still work, as SwayNotificationCenter does.
    case keep
}
