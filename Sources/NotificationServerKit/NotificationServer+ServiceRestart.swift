import DBusCore

extension NotificationServer {
    /// Restarts the service that owns `org.freedesktop.Notifications` while the notifications stay on the screen, as
    /// GNOME Shell's gjs service `org.gnome.Shell.Notifications` does when it restarts alone
    /// (``NotificationServerProfile/notificationsOutliveService``).
    ///
    /// The name moves from the current connection to `connection`. Every notification stays, with its id, buttons and
    /// timer, and new ids go on from the last one; but the service that knew who posted them is gone, so their
    /// signals (`ActionInvoked`, `NotificationClosed`) reach nobody, whatever the user does, until a client replaces
    /// them (`replaces_id`) through the new service. Close the old connection afterwards, as the process that held it
    /// would have ended.
    ///
    /// - Parameter exportDelay: when given, the new service takes the name first and exports its object only this
    ///   long afterwards, answering calls in between with `UnknownObject`. GNOME Shell 43's gjs service does so: it
    ///   asks for `org.freedesktop.Notifications` as it starts and exports once it holds its own name.
    /// - Throws: ``NotificationServerError/noSeparateService(server:)`` for a profile whose notifications go with
    ///   the process, ``NotificationServerError/notRunning``, or what
    ///   ``start(on:profile:replacingOwner:allowingReplacement:)`` throws for `connection`.
    public func restartService(on connection: DBusConnection, exportDelay: Duration? = nil) async throws {
        guard profile.notificationsOutliveService else {
            throw NotificationServerError.noSeparateService(server: profile.serverName)
        }
        guard let old = self.connection else { throw NotificationServerError.notRunning }
        detachService()
        _ = try? await old.releaseName(Self.busName)
        await old.unexport(at: Self.objectPath)
        try await start(on: connection, profile: profile, exportDelay: exportDelay)
    }
}
