import DBusCore

/// Shows a count on an app's launcher or dock icon through the Unity launcher API
/// (`com.canonical.Unity.LauncherEntry`), which KDE's task manager and several docks read; elsewhere nothing shows.
///
/// Each call broadcasts one `Update(s app_uri, a{sv} properties)` signal with `count` (`x`) and `count-visible`
/// (`b`). Docks keep no history: one that starts later shows the badge after the next call. Calls may come from any
/// thread; signals leave in the order of the calls.
package struct BadgeEmitter: Sendable {
    /// The object path the signals are sent from, unless another is given.
    package static let defaultPath: DBusObjectPath = "/io/github/NotificationBridge/LauncherEntry"

    /// The session bus connection the signals go out on.
    package let connection: DBusConnection
    /// The object path the signals are sent from; docks accept any.
    package let path: DBusObjectPath

    /// Makes an emitter that sends on `connection` from `path`.
    package init(connection: DBusConnection, path: DBusObjectPath = BadgeEmitter.defaultPath) {
        self.connection = connection
        self.path = path
    }

    /// Shows `count` on the icon of the app `desktopEntry`, or hides the badge when `count` is `nil`, zero or
    /// negative (`count-visible` false, `count` 0).
    ///
    /// - Parameters:
    ///   - count: the number to show; `nil`, zero or negative hides the badge.
    ///   - desktopEntry: the desktop file's name without `.desktop`, for example `org.example.App`.
    /// - Throws: ``DesktopIntegrationError/invalidDesktopEntry(_:)`` for an id that cannot name a desktop file.
    package func setBadge(_ count: Int?, desktopEntry: String) throws {
        let id = try DesktopEntryID.validated(desktopEntry)
        try connection.emit(
            path: path, interface: "com.canonical.Unity.LauncherEntry", member: "Update",
            arguments: [.string(DesktopEntryID.launcherURI(for: id)), Self.properties(count: count)])
    }

    /// The `a{sv}` properties for a count: `count` (`x`) and `count-visible` (`b`).
    static func properties(count: Int?) -> DBusValue {
        let shown = max(count ?? 0, 0)
        return .vardict(["count": .int64(Int64(shown)), "count-visible": .boolean(shown > 0)])
    }
}
