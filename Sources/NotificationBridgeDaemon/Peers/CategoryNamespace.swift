import DBusCore
import NotificationBridgeAPI
import NotificationModel

/// The categories of sandboxed apps, each app's apart from the others'.
///
/// The host's programs share one set of category ids, as before. A sandboxed app's category `reply` is registered as
/// `APP-ID:reply` (an app id has no `:`, so no app can reach into another's): the app names it `reply` in
/// `RegisterCategory`, `RemoveCategory`, `Post` and filters, sees only its own in `ListCategories`, and cannot replace
/// or remove another app's or the host's.
enum CategoryNamespace {
    /// What comes before the ids of `appID`'s categories.
    static func prefix(of appID: String) -> String { appID + ":" }

    /// The id under which `id`, as `peer` names it, is registered.
    static func registeredID(_ id: String, for peer: Peer) throws(DBusFailure) -> String {
        guard let app = peer.confinedAppID else { return id }
        guard !app.isEmpty else {
            throw DaemonCore.denied(peer, "cannot use categories", instead: "run it from the host, or fix its sandbox")
        }
        let registered = prefix(of: app) + id
        let room = NotificationLimits.maxIdentifierLength - prefix(of: app).utf8.count
        guard id.utf8.count <= room else {
            throw BridgeError.invalid(
                "category id \(quotedForMessage(id)) is \(id.utf8.count) bytes; a category of app "
                    + "\(quotedForMessage(app)) may have at most \(room)")
        }
        return registered
    }

    /// The categories `peer` may see, under the ids it knows them by.
    static func visible(_ categories: [NotificationCategory], to peer: Peer) -> [NotificationCategory] {
        guard let app = peer.confinedAppID else { return categories }
        let prefix = prefix(of: app)
        return categories.compactMap { category in
            guard !app.isEmpty, category.id.hasPrefix(prefix) else { return nil }
            var own = category
            own.id = String(category.id.dropFirst(prefix.count))
            return own
        }
    }
}
