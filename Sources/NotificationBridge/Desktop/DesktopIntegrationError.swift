import DBusCore

/// Why an app could not be raised or its badge set. Each message says what to change.
package enum DesktopIntegrationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text cannot be a desktop entry id (empty, contains `/` or NUL, or starts with `.`).
    case invalidDesktopEntry(String)
    /// No desktop file for the id was found, and D-Bus was not to be tried (or the id is not a bus name).
    /// `searched` lists the folders looked in; empty means GIO's standard XDG data folders.
    case desktopEntryNotFound(String, searched: [String])
    /// GIO could not start the desktop file's `Exec=` command.
    case launchFailed(desktopEntry: String, reason: String)
    /// An action was asked of an app that is not D-Bus activatable, so there is no way to hand it the action.
    case actionNeedsDBusActivation(desktopEntry: String, action: String)
    /// The app's `org.freedesktop.Application` call failed (not installed, not running and not activatable, …).
    case activationFailed(desktopEntry: String, DBusFailure)

    /// What went wrong and what to change, in one sentence.
    package var description: String {
        switch self {
        case .invalidDesktopEntry(let text):
            return "'\(text)' is not a desktop entry id: give the desktop file's name without '.desktop', "
                + "for example 'org.example.App'"
        case .desktopEntryNotFound(let id, let searched):
            let places =
                searched.isEmpty
                ? "the applications folders of XDG_DATA_HOME and XDG_DATA_DIRS" : searched.joined(separator: ", ")
            return "no desktop file '\(id).desktop' in \(places): install one there"
                + (DesktopEntryID.isBusName(id) ? ", or let the app own the bus name '\(id)'" : "")
        case .launchFailed(let id, let reason):
            return "cannot start '\(id).desktop': \(reason); check its Exec= line"
        case .actionNeedsDBusActivation(let id, let action):
            return "'\(id).desktop' is not D-Bus activatable, so it cannot receive action '\(action)': set "
                + "DBusActivatable=true and export org.freedesktop.Application, or route the response to a command"
        case .activationFailed(let id, let failure):
            return "the app '\(id)' did not accept the activation (\(failure)): check that it owns the bus name "
                + "'\(id)' or has a D-Bus service file for it, and exports org.freedesktop.Application at "
                + "\(DesktopEntryID.applicationObjectPath(for: id)?.rawValue ?? "its object path")"
        }
    }
}
