import DBusCore
import NotificationBridgeAPI
import NotificationModel

/// The registered categories, by id, with the connection that registered each during this run, and the limits a new
/// one must stay within: of all, of one connection, of one sandboxed app. A plain value: the daemon keeps one and
/// asks it.
struct CategoryRegistry: Sendable {
    /// Categories registered at most.
    static let maximum = NotificationLimits.maxCategories
    /// Categories one connection may have registered (those still registered), so that one program cannot take them
    /// all.
    static let maximumPerConnection = 128
    /// Categories one sandboxed app may have registered.
    static let maximumPerSandboxedApp = 32

    /// The categories, by id.
    private var categories: [String: NotificationCategory] = [:]
    /// The connection that registered each category during this run (none for those restored from disk).
    private var registrants: [String: String] = [:]

    /// The category with id `id`, if it is registered.
    subscript(id: String) -> NotificationCategory? { categories[id] }

    /// The registered categories, by id.
    var all: [NotificationCategory] { categories.values.sorted { $0.id < $1.id } }

    /// How many are registered.
    var count: Int { categories.count }

    /// Registers or replaces `category`, once it and the set it joins are valid; `registrant` is the connection that
    /// asked (`nil`: restored from disk).
    mutating func register(
        _ category: NotificationCategory, by registrant: String?
    ) throws(NotificationValidationError) {
        try category.validate()
        var updated = categories
        updated[category.id] = category
        try NotificationCategory.validate(Array(updated.values))
        categories = updated
        if let registrant { registrants[category.id] = registrant }
    }

    /// Removes category `id`.
    mutating func remove(_ id: String) {
        categories[id] = nil
        registrants[id] = nil
    }

    /// Forgets which categories the connection `uniqueName`, which left the bus, registered: they stay registered,
    /// and no longer count against a connection.
    mutating func connectionLeft(_ uniqueName: String) {
        registrants = registrants.filter { $0.value != uniqueName }
    }

    /// Refuses a new category `id` from `sender`, which `peer` is, beyond the limits: of all, of the connection, of a
    /// sandboxed app. A category registered already may always be replaced.
    func checkLimits(adding id: String, by peer: Peer, sender: String) throws(DBusFailure) {
        guard categories[id] == nil else { return }
        let howToFree = "remove unused ones with RemoveCategory (ListCategories lists them)"
        if categories.count >= Self.maximum {
            throw BridgeError.limitExceeded.failure(
                "\(categories.count) categories are registered, the most allowed; \(howToFree)")
        }
        let ofConnection = registrants.values.lazy.filter { $0 == sender }.count
        if ofConnection >= Self.maximumPerConnection {
            throw BridgeError.limitExceeded.failure(
                "this connection has registered \(ofConnection) categories, the most one connection may; "
                    + howToFree)
        }
        if let app = peer.confinedAppID {
            let prefix = CategoryNamespace.prefix(of: app)
            let ofApp = categories.keys.lazy.filter { $0.hasPrefix(prefix) }.count
            if ofApp >= Self.maximumPerSandboxedApp {
                throw BridgeError.limitExceeded.failure(
                    "app \(quotedForMessage(app)) has \(ofApp) categories, the most a sandboxed app may; "
                        + howToFree)
            }
        }
    }
}
