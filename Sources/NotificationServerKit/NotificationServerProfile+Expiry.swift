extension NotificationServerProfile {
    /// The same server, except that a notification posted with the server's default timeout (`expire_timeout` -1)
    /// stays until it is acted on or closed, as on mako or GNOME Shell: for a test that acts on a notification at the
    /// pace of a loaded machine. A timeout the client asks for is kept as the profile treats it.
    public var withoutDefaultExpiry: NotificationServerProfile {
        var profile = self
        profile.defaultTimeout = nil
        return profile
    }
}
