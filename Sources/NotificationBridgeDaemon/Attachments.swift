/// The running apps: connections that said "I am app X" with `Attach`, most recent last.
///
/// Only the most recently attached connection of an app counts (one place only); when it leaves the bus or detaches,
/// the one attached before it, if still there, counts again.
struct Attachments: Sendable {
    struct Attachment: Sendable, Hashable {
        /// The unique name of the connection.
        var connection: String
        /// Whether the app is frontmost: scheduled notifications of the app are handed to it instead of shown.
        var foreground: Bool
    }

    static let maximumPerApp = 16
    static let maximumApps = 1024

    private var byApp: [String: [Attachment]] = [:]

    /// The connection that counts for `appName`, if any.
    func current(for appName: String) -> Attachment? { byApp[appName]?.last }

    /// The app names `connection` is attached as.
    func names(of connection: String) -> [String] {
        byApp.compactMap { name, list in list.contains { $0.connection == connection } ? name : nil }
    }

    /// Attaches (or re-attaches, moving it last) a connection as `appName`.
    ///
    /// - Returns: `false` when too many apps are attached to take a new one.
    mutating func attach(_ attachment: Attachment, as appName: String) -> Bool {
        if byApp[appName] == nil, byApp.count >= Self.maximumApps { return false }
        var list = byApp[appName, default: []].filter { $0.connection != attachment.connection }
        list.append(attachment)
        byApp[appName] = Array(list.suffix(Self.maximumPerApp))
        return true
    }

    /// Detaches a connection from one app.
    ///
    /// - Returns: whether it was attached as that app.
    mutating func detach(_ connection: String, from appName: String) -> Bool {
        guard let list = byApp[appName], list.contains(where: { $0.connection == connection }) else { return false }
        let remaining = list.filter { $0.connection != connection }
        byApp[appName] = remaining.isEmpty ? nil : remaining
        return true
    }

    /// Detaches a connection that left the bus from every app.
    mutating func remove(_ connection: String) {
        for appName in Array(byApp.keys) { _ = detach(connection, from: appName) }
    }
}
