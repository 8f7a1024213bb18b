import NotificationBridgeAPI

/// Where GSettings keeps GNOME's notification keys.
public enum GSettingsStorage: Sendable, Hashable {
    /// GLib's default: dconf on a GNOME desktop (`GSETTINGS_BACKEND` chooses another).
    case standard
    /// A key file, as `GSETTINGS_BACKEND=keyfile` keeps one (`$XDG_CONFIG_HOME/glib-2.0/settings/keyfile`).
    case keyFile(String)
    /// Memory only, lost at exit.
    case memory
}

/// Where notification settings are kept, and the rule that chooses.
public enum NotificationSettingsLocation: Sendable, Hashable {
    /// GNOME's keys when the desktop is GNOME (`XDG_CURRENT_DESKTOP` names it) and its schemas are installed;
    /// otherwise the bridge's own file.
    case automatic
    /// GNOME's keys, kept by `storage`; the badge and what apps asked for stay in the bridge's file.
    case gnome(GSettingsStorage)
    /// The bridge's own file only.
    case file

    /// The folder of the bridge's own file: `$XDG_CONFIG_HOME/notification-bridge`, by default
    /// `~/.config/notification-bridge`.
    package static func defaultDirectory(environment: [String: String]) -> String {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            return config + "/notification-bridge"
        }
        return (environment["HOME"] ?? "") + "/.config/notification-bridge"
    }

    /// Whether `XDG_CURRENT_DESKTOP` (a list separated by colons) names GNOME.
    package static func isGNOME(environment: [String: String]) -> Bool {
        (environment["XDG_CURRENT_DESKTOP"] ?? "").split(separator: ":").contains { $0.uppercased() == "GNOME" }
    }
}

/// Why a settings change could not be kept.
package struct SettingsStoreError: Error, CustomStringConvertible, Sendable {
    /// What kind of problem.
    package enum Kind: Sendable {
        /// The app's name cannot be kept in the file.
        case invalidApp
        /// The file cannot be written, or the store's thread cannot start.
        case cannotWrite
    }

    package let kind: Kind
    package let description: String
}
