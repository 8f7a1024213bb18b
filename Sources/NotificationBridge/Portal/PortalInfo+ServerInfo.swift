/// The portal in the words of a notification server, for ``DesktopNotificationCenter/serverInformation()``.
extension PortalInfo {
    /// The portal as ``DesktopNotificationCenter/serverInformation()`` reports it: what reaches the desktop, its
    /// capabilities in the freedesktop words they correspond to; the version it advertises is named beside it when
    /// that is more.
    package var serverInfo: NotificationServerInfo {
        var capabilities: Set<String> = ["actions", "body"]
        if deliveredVersion >= 2 { capabilities.insert("sound") }
        if repliesWithText { capabilities.insert("inline-reply") }
        let delivered = deliveredVersion
        return NotificationServerInfo(
            name: "xdg-desktop-portal", vendor: "freedesktop.org", version: "\(delivered)",
            specVersion: delivered == version
                ? "portal \(version)" : "portal \(version), whose backend takes version \(delivered)'s keys",
            capabilities: capabilities)
    }
}
