/// Who is behind a connection that calls the daemon: a process of the user's host, or an app in a sandbox.
///
/// Everything on the session bus runs as the same user, but a Flatpak or a Snap draws a boundary inside that user:
/// a sandboxed app may act only as itself. As xdg-desktop-portal does, the daemon tells them apart by what the sandbox
/// itself provides, which the app cannot forge: the `/.flatpak-info` that Flatpak puts at the root of the app's mount
/// namespace (and of its D-Bus proxy's), or the AppArmor label and cgroup that snapd gives a Snap's processes.
enum Peer: Sendable, Hashable {
    /// A process of the host: it may act on any app's notifications, as it could on the user's files.
    case host
    /// A sandboxed app, known by its app id (a Flatpak's `[Application] name`, or `snap.` and a Snap's name).
    case sandboxed(SandboxedApp)
    /// A sandboxed process whose app could not be read (a `/.flatpak-info` without an app name, say): it may do
    /// nothing that needs an app, and never what only the host may do.
    case unidentified(kind: SandboxedApp.Kind?, why: String)

    /// The app id a sandboxed peer is confined to, `nil` for the host.
    var confinedAppID: String? {
        switch self {
        case .host: nil
        case .sandboxed(let app): app.id
        // Matches no app: every check that compares an app name with it fails.
        case .unidentified: ""
        }
    }

    /// Whether the peer is sandboxed (identified or not).
    var isSandboxed: Bool {
        if case .host = self { return false }
        return true
    }

    /// A description for logs and error messages: "the host", "Flatpak app org.example.App".
    var description: String {
        switch self {
        case .host: "a host process"
        case .sandboxed(let app): "\(app.kind.rawValue) app \(app.id)"
        case .unidentified(let kind?, _): "a \(kind.rawValue) app that could not be identified"
        case .unidentified(nil, _): "a process that could not be identified"
        }
    }
}

/// An app in a sandbox, as the daemon identified it.
struct SandboxedApp: Sendable, Hashable {
    enum Kind: String, Sendable, Hashable {
        case flatpak = "Flatpak"
        case snap = "Snap"
    }

    var kind: Kind
    /// The app id: the Flatpak's app id (`org.example.App`), or `snap.` and the Snap's instance name.
    var id: String
    /// For a Snap, its instance name (the first part of its desktop files' names, `NAME_APP.desktop`).
    var snapName: String?

    /// Whether `desktopEntry` (a desktop id, with or without `.desktop`) is one of this app's own.
    ///
    /// A Flatpak's is exactly its app id. Flatpak also exports desktop files named `APPID.*.desktop`, but
    /// `org.example.App.Bank` may as well be the app id of another app: a prefix cannot tell them apart, so only the
    /// app id itself is the app's own. A Snap's are `NAME_APP` (a Snap's name holds no `_`, so the prefix is its own).
    func owns(desktopEntry: String) -> Bool {
        let name = desktopEntry.hasSuffix(".desktop") ? String(desktopEntry.dropLast(8)) : desktopEntry
        switch kind {
        case .flatpak: return name == id
        case .snap:
            guard let snapName else { return false }
            return name == snapName || name.hasPrefix(snapName + "_")
        }
    }

    /// Whether `appName`, the app name a notification is posted under, is this app's own: its app id or, for a Snap,
    /// its name.
    func owns(appName: String) -> Bool {
        appName == id || (snapName != nil && appName == snapName)
    }
}
