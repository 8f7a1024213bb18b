extension DesktopNotificationCenter {
    /// Notes which process shows the notifications, where that is not the owner of the notification name
    /// (``NotificationServerInfo/displayBusName``), and says whether it is the same process as when a server last
    /// arrived.
    ///
    /// When it is, the server that just arrived is a restarted service in front of the same display (GNOME Shell's
    /// notification service restarting alone): the notifications posted through the previous service are still on
    /// the screen, with buttons whose signals reach nobody. Before they are posted again, those copies must be closed
    /// (the new service forwards a close of an id it does not know), so that no second copy appears and the one the
    /// user sees is the one that answers. When the display process changed too, the old ids mean nothing to it (or
    /// another application's notification): nothing is closed.
    func displayKeptNotifications() async -> Bool {
        guard let name = serverInformation().displayBusName else {
            displayOwner = nil
            return false
        }
        let previous = displayOwner
        displayOwner = try? await connection.nameOwner(of: name)
        return previous != nil && previous == displayOwner
    }
}
