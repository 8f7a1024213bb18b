import DBusCore

/// What the notification portal offers: the version it advertises, the version whose keys reach the desktop, and,
/// from version 2, the options its backend advertises.
///
/// The two versions differ on Debian 13: xdg-desktop-portal 1.20 advertises version 2 to every app, but its
/// version-2 keys (`sound`, `display-hint`, `category`, a button's `purpose`, `markup-body`) reach the desktop only
/// through a backend that implements version 2 itself. GTK's backend there answers `version` 0 and an empty
/// `SupportedOptions`, and GNOME's and KDE's do not implement version 2 either. The bridge encodes for
/// ``deliveredVersion``, and `notification-bridge doctor` reports both.
package struct PortalInfo: Sendable, Hashable {
    /// The `version` property: 1 for xdg-desktop-portal up to 1.18 (Debian 12 ships 1.16), 2 from 1.20.
    package var version: UInt32
    /// `SupportedOptions` (version 2): option name → value, such as `button-purpose` → the purposes the desktop
    /// shows.
    package var supportedOptions: [String: DBusValue]
    /// The `version` of the desktop's own backend (`org.freedesktop.impl.portal.Notification`), where it could be
    /// read: on the host, not from inside a sandbox, whose bus shows only the portal.
    package var backendVersion: UInt32?

    /// The portal's bus name.
    package static let busName = "org.freedesktop.portal.Desktop"
    /// Its object.
    package static let path: DBusObjectPath = "/org/freedesktop/portal/desktop"
    /// The notification interface.
    package static let interface = "org.freedesktop.portal.Notification"
    /// The bus names of the desktops' backends start with this (`…desktop.gtk`, `…desktop.gnome`, `…desktop.kde`).
    package static let backendNamePrefix = "org.freedesktop.impl.portal.desktop."
    /// The backends' notification interface, whose `version` says which keys reach the desktop.
    package static let backendInterface = "org.freedesktop.impl.portal.Notification"
    /// The `SupportedOptions` key listing the categories the desktop understands (version 2).
    package static let categoryOption = "category"
    /// The `SupportedOptions` key listing the button purposes the desktop shows (version 2).
    package static let buttonPurposeOption = "button-purpose"
    /// The button purpose that asks the desktop for a text field; the typed text comes back in the parameter.
    package static let replyWithText = "im.reply-with-text"

    /// Makes the description of a portal.
    package init(version: UInt32, supportedOptions: [String: DBusValue] = [:], backendVersion: UInt32? = nil) {
        self.version = version
        self.supportedOptions = supportedOptions
        self.backendVersion = backendVersion
    }

    /// Reads the portal on `connection`: its `version`, from version 2 its `SupportedOptions`, and the lowest
    /// `version` of the desktop's backends that the bus shows (none from inside a sandbox).
    ///
    /// - Throws: `DBusFailure` when no portal answers or it has no notification interface.
    package static func read(on connection: DBusConnection, timeout: Duration) async throws -> PortalInfo {
        func property(_ name: String) async throws -> DBusValue? {
            try await connection.call(
                destination: busName, path: path, interface: "org.freedesktop.DBus.Properties", method: "Get",
                arguments: [.string(interface), .string(name)], timeout: timeout
            ).first?.unwrappedVariant
        }
        guard case .uint32(let version)? = try await property("version") else {
            throw DBusFailure(
                name: DBusFailure.Name.invalidArgs,
                message: "the portal's version is not a uint32; is \(busName) a real portal?")
        }
        var options: [String: DBusValue] = [:]
        if version >= 2, let supported = try? await property("SupportedOptions")?.stringKeyedEntries {
            options = supported.mapValues(\.unwrappedVariant)
        }
        let backend = version >= 2 ? await backendVersion(on: connection, timeout: timeout) : nil
        return PortalInfo(version: version, supportedOptions: options, backendVersion: backend)
    }

    /// The lowest `version` of the desktop's portal backends that run (`org.freedesktop.impl.portal.desktop.NAME`)
    /// and answer for notifications; `nil` when none can be seen, as from inside a sandbox, whose bus lists only what
    /// it may talk to.
    package static func backendVersion(on connection: DBusConnection, timeout: Duration) async -> UInt32? {
        guard
            case .array(_, let names)? = try? await connection.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                method: "ListNames", timeout: timeout
            ).first
        else { return nil }
        var lowest: UInt32?
        for name in names.compactMap(\.stringValue) where name.hasPrefix(backendNamePrefix) {
            let reply = try? await connection.call(
                destination: name, path: path, interface: "org.freedesktop.DBus.Properties", method: "Get",
                arguments: [.string(backendInterface), .string("version")], timeout: timeout)
            guard case .uint32(let version)? = reply?.first?.unwrappedVariant else { continue }
            lowest = min(lowest ?? version, version)
        }
        return lowest
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
        deliveredVersion >= 2 && listed(Self.buttonPurposeOption).contains(Self.replyWithText)
    }

    /// Categories the desktop understands (version 2).
    package var categories: Set<String> {
        deliveredVersion >= 2 ? listed(Self.categoryOption) : []
    }

    /// What an app may ask for that does not reach this desktop, in a user's words: version 2's keys where only
    /// version 1's are delivered (the body's markup is then sent as plain text), and a reply field where the desktop
    /// lists none. Empty where everything reaches it.
    package var notDelivered: [String] {
        var lost: [String] = []
        if deliveredVersion < 2 {
            lost += ["sounds", "display hints (transient, persistent)", "categories", "markup in the body"]
        }
        if !repliesWithText { lost.append("a reply field in the notification") }
        return lost
    }
}
