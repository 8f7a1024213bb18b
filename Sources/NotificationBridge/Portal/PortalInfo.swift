import DBusCore

/// What the notification portal offers: its interface version and, from version 2, the options its backend
/// advertises.
package struct PortalInfo: Sendable, Hashable {
    /// The `version` property: 1 for xdg-desktop-portal up to 1.18 (Debian 12 ships 1.16), 2 from 1.20.
    package var version: UInt32
    /// `SupportedOptions` (version 2): option name → value, such as `button-purpose` → the purposes the desktop
    /// shows.
    package var supportedOptions: [String: DBusValue]

    /// Makes the description of a portal.
    package init(version: UInt32, supportedOptions: [String: DBusValue] = [:]) {
        self.version = version
        self.supportedOptions = supportedOptions
    }

    /// The strings listed under one supported option (`as`), empty when the portal lists none.
    package func listed(_ option: String) -> Set<String> {
        guard case .array(_, let values)? = supportedOptions[option]?.unwrappedVariant else { return [] }
        return Set(values.compactMap(\.stringValue))
    }

    /// Whether the desktop shows a text field for a button with purpose `im.reply-with-text`.
    package var repliesWithText: Bool {
        version >= 2 && listed(PortalWire.Option.buttonPurpose).contains(PortalWire.replyWithText)
    }

    /// Categories the desktop understands (version 2).
    package var categories: Set<String> {
        version >= 2 ? listed(PortalWire.Option.category) : []
    }

    /// The portal as ``DesktopNotificationCenter/serverInformation()`` reports it: its capabilities in the
    /// freedesktop words they correspond to.
    package var serverInfo: NotificationServerInfo {
        var capabilities: Set<String> = ["actions", "body"]
        if version >= 2 { capabilities.insert("sound") }
        if repliesWithText { capabilities.insert("inline-reply") }
        return NotificationServerInfo(
            name: "xdg-desktop-portal", vendor: "freedesktop.org", version: "\(version)",
            specVersion: "portal \(version)", capabilities: capabilities)
    }
}
