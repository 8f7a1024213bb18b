/// Reference text generated from the contract's tables, so that what the interface says about itself (the
/// introspection XML's documentation) cannot fall behind what it takes.
///
/// `gdbus introspect` prints each annotation on one line, so a DocString stays within ``docStringLimit``: a table of
/// keys too long for that is named by its section of the manual page, notification-bridge-dbus(7), which describes
/// every key, error and member in full.
public enum InterfaceReference {
    /// The most bytes (UTF-8) of one `org.gtk.GDBus.DocString` annotation.
    public static let docStringLimit = 400

    /// The manual page that describes the interface in full.
    public static let manualPage = "notification-bridge-dbus(7)"

    /// The names of `keys`, comma-separated, e.g. `app-name, category, thread`.
    public static func names(_ keys: [BridgeKeyInfo]) -> String {
        keys.map(\.name).joined(separator: ", ")
    }

    /// Where a table is described in full: `notification-bridge-dbus(7), NOTIFICATION KEYS`.
    ///
    /// - Parameter section: the manual page's section, e.g. `NOTIFICATION KEYS`.
    public static func manual(_ section: String) -> String {
        "\(manualPage), \(section)"
    }

    /// The keys as `name (type): summary`, separated by semicolons, e.g. `title (s): the summary, in plain text`.
    public static func keys(_ keys: [BridgeKeyInfo]) -> String {
        keys.map(\.reference).joined(separator: "; ")
    }

    /// The names of ``BridgeError/all`` without the interface's prefix (`InvalidArgument, UnknownCategory, …`); what
    /// each means is in the manual page's ERRORS.
    public static var errors: String {
        BridgeError.all.map { error in
            error.rawValue.hasPrefix(BridgeAPI.errorPrefix)
                ? String(error.rawValue.dropFirst(BridgeAPI.errorPrefix.count)) : error.rawValue
        }.joined(separator: ", ")
    }
}

extension BridgeKeyInfo {
    /// The key as the reference lists it: `name (type): summary`, the types joined by "or" (`urgency (s or y): …`).
    public var reference: String {
        "\(name) (\(types.joined(separator: " or "))): \(summary)"
    }
}
