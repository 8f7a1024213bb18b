extension NotificationAction {
    /// Whether choosing an action brings the app to the front.
    ///
    /// Encoded as the strings `"foreground"` and `"background"`, the same words the daemon's D-Bus API uses.
    public enum Activation: String, Sendable, Hashable, Codable, CaseIterable {
        /// The response is delivered and the app is raised, with the server's activation token passed on.
        ///
        /// Foreground actions always require authentication.
        case foreground

        /// The handler runs and nothing is raised; no activation token is used.
        case background
    }
}
