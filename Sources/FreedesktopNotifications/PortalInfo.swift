import DBusCore

/// What the notification portal offers: the version it advertises, the version whose keys reach the desktop, and,
/// from version 2, the options its backend advertises.
///
/// The two versions differ on Debian 13: xdg-desktop-portal 1.20 advertises version 2 to every app, but its
/// version-2 keys (`sound`, `display-hint`, `category`, a button's `purpose`, `markup-body`) reach the desktop only
/// through a backend that implements version 2 itself. GTK's backend there answers `version` 0 and an empty
/// `SupportedOptions`, and GNOME's and KDE's do not implement version 2 either. The bridge encodes for
/// ``deliveredVersion``.
package struct PortalInfo: Sendable, Hashable {
    /// The `version` property: 1 for xdg-desktop-portal up to 1.18 (Debian 12 ships 1.16), 2 from 1.20.
    package var version: UInt32
    /// `SupportedOptions` (version 2): option name → value, such as `button-purpose` → the purposes the desktop
    /// shows.
    package var supportedOptions: [String: DBusValue]
    /// The `version` of the desktop's own backend (`org.freedesktop.impl.portal.Notification`), where it could be
    /// read: on the host, not from inside a sandbox, whose bus shows only the portal.
    package var backendVersion: UInt32?

    /// Makes the description of a portal.
    package init(version: UInt32, supportedOptions: [String: DBusValue] = [:], backendVersion: UInt32? = nil) {
        self.version = version
        self.supportedOptions = supportedOptions
        self.backendVersion = backendVersion
    }

    /// The version whose keys reach the desktop: the advertised one where the backend implements it too, as its own
    /// `version` says (read on the host) or, where it cannot be read, as a non-empty `SupportedOptions` shows (a
    /// version-2 backend lists its options there); else version 1's.
    package var deliveredVersion: UInt32 {
        guard version >= 2 else { return version }
        if let backendVersion { return backendVersion >= 2 ? min(version, backendVersion) : 1 }
        return supportedOptions.isEmpty ? 1 : version
    }

    /// The strings listed under one supported option (`as`), empty when the portal lists none.
    package func listed(_ option: String) -> Set<String> {
        guard case .array(_, let values)? = supportedOptions[option]?.unwrappedVariant else { return [] }
        return Set(values.compactMap(\.stringValue))
    }

    /// Whether the desktop shows a text field for a button with purpose `im.reply-with-text`.
    package var repliesWithText: Bool {
        deliveredVersion >= 2 && listed(PortalWire.Option.buttonPurpose).contains(PortalWire.replyWithText)
    }

    /// Categories the desktop understands (version 2).
    package var categories: Set<String> {
        deliveredVersion >= 2 ? listed(PortalWire.Option.category) : []
    }

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
