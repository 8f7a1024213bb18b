import DBusCore
import NotificationBridge
import NotificationBridgeAPI
import NotificationModel

/// What a sandboxed peer may do: act as its own app, and nothing more. A host process may do everything, as before.
///
/// Each check throws `AccessDenied` with what was refused and what the app may do instead. See `docs/security.md`.
extension DaemonCore {
    /// The peer behind `sender`: at once, without leaving the actor, once it has been identified (every call after a
    /// connection's first).
    func peer(of sender: String) async -> Peer {
        if let known = peers.known(sender) { return known }
        return await peers.peer(of: sender)
    }

    /// Server hints a sandboxed app may pass with `hints`: those that change how a notification looks or stacks, none
    /// that names an app, a process or a file of the host.
    static let hintsForSandboxedApps: Set<String> = [
        "category", "value", "x-canonical-private-synchronous", "x-dunst-stack-tag", "synchronous",
        "private-synchronous", "x-canonical-append", "x-canonical-private-icon-only",
    ]

    /// The refusal of what `peer` asked.
    static func denied(_ peer: Peer, _ what: String, instead: String) -> DBusFailure {
        var message = "\(peer.description) \(what)"
        if case .unidentified(_, let why) = peer { message += " (\(why))" }
        return BridgeError.accessDenied.failure(message + "; \(instead)")
    }

    /// Settles a `Post` of a sandboxed peer: its app name is its app id (given or not), its desktop entry one of its
    /// own, and it names no command, no other app and no file of the host.
    func confine(_ request: inout PostRequest, givenAppName: String?, to peer: Peer) throws(DBusFailure) {
        guard case .sandboxed(let app) = peer else {
            if case .unidentified = peer {
                throw Self.denied(peer, "cannot post", instead: "run it from the host, or fix its sandbox")
            }
            return
        }
        if let givenAppName, !app.owns(appName: givenAppName) {
            throw Self.denied(
                peer, "cannot post as app \(quotedForMessage(givenAppName))",
                instead: "leave 'app-name' out, or give its own app id \(quotedForMessage(app.id))")
        }
        // Its app id, also where a Snap gave its bare name: every later check compares app names with the app id.
        request.content.appName = app.id
        // A Flatpak's desktop file is named by its app id: the server shows the app's name and icon from it.
        if app.kind == .flatpak, request.content.desktopEntry == nil { request.content.desktopEntry = app.id }
        if let category = request.content.categoryID {
            request.content.categoryID = try CategoryNamespace.registeredID(category, for: peer)
        }
        if let entry = request.content.desktopEntry, !app.owns(desktopEntry: entry) {
            throw Self.denied(
                peer, "cannot post under the desktop entry \(quotedForMessage(entry))",
                instead: "leave 'desktop-entry' out, or give one of its own (\(quotedForMessage(app.id)))")
        }
        switch request.route {
        case .command?:
            throw Self.denied(
                peer, "cannot have the host run a command ('exec')",
                instead: "receive responses as the poster (Responded, WaitForResponse) or through 'app-action'")
        case .application(let entry, let action)?:
            let own = entry.isEmpty ? app.id : entry
            guard app.owns(desktopEntry: own) else {
                throw Self.denied(
                    peer, "cannot send responses to the app \(quotedForMessage(entry)) ('app-action')",
                    instead: "name its own app id \(quotedForMessage(app.id)) as 'desktop-entry'")
            }
            request.route = .application(desktopEntry: own, action: action)
        case .poster?, nil:
            break
        }
        let pictures = [(PostKeys.icon.name, request.content.icon), (PostKeys.image.name, request.content.image)]
        for (field, value) in pictures {
            if let value, Self.namesAFile(value) {
                throw Self.denied(
                    peer, "cannot show a file of the host as '\(field)' (\(quotedForMessage(value)))",
                    instead: "give an icon name from the icon theme")
            }
        }
        if case .file(let path) = request.content.sound {
            throw Self.denied(
                peer, "cannot play a file of the host as 'sound' (\(quotedForMessage(path)))",
                instead: "give a sound name from the sound theme, or 'default'")
        }
        if let hint = request.hints.keys.sorted().first(where: { !Self.hintsForSandboxedApps.contains($0) }) {
            throw Self.denied(
                peer, "cannot pass the server hint \(quotedForMessage(hint))",
                instead: "use the notification's own keys; the hints a sandboxed app may pass are "
                    + Self.hintsForSandboxedApps.sorted().joined(separator: ", "))
        }
    }

    /// Refuses a sandboxed peer's action on notification `id` of another app.
    func checkAccess(to id: String, _ entry: TrackedNotification, by peer: Peer, _ what: String) throws(DBusFailure) {
        guard let confined = peer.confinedAppID, entry.appName != confined else { return }
        throw Self.denied(
            peer, "cannot \(what) notification \(quotedForMessage(id)) of another app",
            instead: "act only on notifications posted under its own app id")
    }

    /// Refuses a sandboxed peer's filter that names another app; a category it names is one of its own.
    func confine(_ filter: inout NotificationFilter, to peer: Peer) throws(DBusFailure) {
        guard let confined = peer.confinedAppID else { return }
        if let appName = filter.appName, appName != confined {
            throw Self.denied(
                peer, "cannot select the notifications of app \(quotedForMessage(appName))",
                instead: "leave 'app-name' out (its own connection's), or give its own app id")
        }
        if let category = filter.category { filter.category = try CategoryNamespace.registeredID(category, for: peer) }
    }

    /// Refuses a sandboxed peer's use of another app's name (`Attach`, settings).
    func checkAccess(toApp appName: String, by peer: Peer, _ what: String) throws(DBusFailure) {
        switch peer {
        case .host: return
        case .sandboxed(let app) where app.owns(appName: appName) || app.owns(desktopEntry: appName): return
        default:
            throw Self.denied(
                peer, "cannot \(what) app \(quotedForMessage(appName))", instead: "use its own app id")
        }
    }

    /// Whether an icon or image value names a file rather than a themed icon.
    private static func namesAFile(_ value: String) -> Bool {
        value.contains("/") || value.hasPrefix("file:")
    }
}
